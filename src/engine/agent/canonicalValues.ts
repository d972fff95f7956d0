/**
 * The canonical forms the JSON reader of canonicalJson.ts writes: numbers from their digits, and
 * objects with keys sorted and duplicates dropped (the later one wins).
 */

/** Objects with more keys than this are sorted natively instead of by insertion. */
const INSERTION_SORT_MAX = 32
/**
 * Containers this close to the top are written with join (flat strings: each level copies its
 * subtree once, cheap for the shallow objects tools get). Deeper ones use `+`, which V8 keeps as
 * ropes, so 100 000-deep nesting stays linear instead of copying the subtree at every level.
 */
const FLAT_DEPTH_MAX = 64
/** A double holds every integer of up to 15 digits exactly; longer exponents go through BigInt. */
const SAFE_EXPONENT_DIGITS = 15
const ZERO = 48

/** An open container of the reader. */
export interface Frame {
  object: boolean
  /** Objects: the canonical (quoted) key of each entry, parallel to `values`. */
  keys: string[]
  /** Arrays: the canonical values. Objects: each entry written as `key:value`. */
  values: string[]
}

/** `[-]digits[e<exp>]` with no leading or trailing zeros; every zero is `0`. */
export function canonicalNumber(
  negative: boolean,
  allDigits: string,
  fractionLength: number,
  expText: string,
): string {
  let lead = 0
  while (lead < allDigits.length && allDigits.charCodeAt(lead) === ZERO) lead++
  if (lead === allDigits.length) return '0' // every zero, including -0, is 0
  let end = allDigits.length
  while (allDigits.charCodeAt(end - 1) === ZERO) end--
  const digits = allDigits.slice(lead, end)
  const shift = allDigits.length - end - fractionLength
  // Exponents too long for a double are added exactly.
  let exponent: string
  if (expText.length <= SAFE_EXPONENT_DIGITS) {
    const value = (expText === '' ? 0 : Number(expText)) + shift
    exponent = value === 0 ? '' : String(value)
  } else {
    const value = BigInt(expText) + BigInt(shift)
    exponent = value === 0n ? '' : value.toString()
  }
  return (negative ? '-' : '') + digits + (exponent === '' ? '' : 'e' + exponent)
}

/** Joins parts with ','; deep containers use `+` (ropes) so each level does not copy its subtree. */
function joined(open: string, parts: readonly string[], close: string, depth: number): string {
  if (depth < FLAT_DEPTH_MAX && parts.length > 8) return open + parts.join(',') + close
  let out = open
  for (let i = 0; i < parts.length; i++) out += (i === 0 ? '' : ',') + (parts[i] as string)
  return out + close
}

/** Sorts a frame's entries by canonical key; for equal keys the later one wins. */
export function closeObject(frame: Frame, depth: number): string {
  const { keys, values } = frame
  const n = keys.length
  let duplicates = false
  if (n > INSERTION_SORT_MAX) {
    // A Map keeps the last entry of a duplicated key; the comparator-free sort is native.
    const byKey = new Map<string, string>()
    for (let i = 0; i < n; i++) byKey.set(keys[i] as string, values[i] as string)
    const sorted = Array.from(byKey.keys()).sort()
    return joined(
      '{',
      sorted.map((key) => byKey.get(key) as string),
      '}',
      depth,
    )
  }
  // Insertion sort in place: stable and allocation-free for the small objects tools get.
  for (let i = 1; i < n; i++) {
    const key = keys[i] as string
    const value = values[i] as string
    let j = i
    while (j > 0 && (keys[j - 1] as string) >= key) {
      if (keys[j - 1] === key) {
        duplicates = true
        break // stability: a later duplicate stays after the earlier one
      }
      keys[j] = keys[j - 1] as string
      values[j] = values[j - 1] as string
      j--
    }
    keys[j] = key
    values[j] = value
  }
  if (!duplicates) return joined('{', values, '}', depth)
  const kept = values.filter((_, i) => keys[i + 1] !== keys[i])
  return joined('{', kept, '}', depth)
}

export function closeArray(frame: Frame, depth: number): string {
  return joined('[', frame.values, ']', depth)
}
