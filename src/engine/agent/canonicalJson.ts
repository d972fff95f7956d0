/**
 * A strict JSON (RFC 8259) reader that writes a canonical text instead of building values, so two
 * argument strings that mean the same JSON value produce the same text (docs/guard.md, layer 2):
 * object keys sorted at every depth (last duplicate wins), strings and keys NFC-normalised,
 * numbers written from their digits (no float rounding, so integers beyond 2^53 keep every
 * digit), whitespace outside strings dropped.
 *
 * It never recurses (an explicit stack handles any depth); see canonicalValues.ts for how the
 * output is assembled so that both shallow and very deep documents stay cheap.
 */

import { canonicalNumber, closeArray, closeObject, type Frame } from './canonicalValues.ts'

/**
 * The rest of a string token that JSON.stringify would write back unchanged: printable ASCII
 * except `"` and `\`, and the short escapes JSON.stringify itself uses. Written as
 * "normal* (escape normal*)*" so that no character can match two ways: the regex stays linear
 * (no catastrophic backtracking) however long the string.
 */
const CANONICAL_STRING_REST = /[\x20\x21\x23-\x5b\x5d-\x7e]*(?:\\["\\bfnrt][\x20\x21\x23-\x5b\x5d-\x7e]*)*"/y
/** Anything a JSON string may hold unescaped, except `"` and `\`. */
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const PLAIN_RUN = /[^"\\\x00-\x1f]*/y
// eslint-disable-next-line no-control-regex -- the complement of ASCII, control characters included
const NON_ASCII = /[^\x00-\x7f]/

const HEX4 = /^[0-9a-fA-F]{4}$/

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const MINUS = 45
const PLUS = 43
const DOT = 46
const ZERO = 48
const NINE = 57
const LOWER_E = 101
const UPPER_E = 69

/** The JSON type of the top-level value, which the signature records. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

export interface CanonicalJson {
  kind: JsonKind
  text: string
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE
}

class Reader {
  pos = 0
  constructor(readonly text: string) {}

  skipWhitespace(): void {
    const text = this.text
    let pos = this.pos
    if (text.charCodeAt(pos) > 32) return
    for (;;) {
      const c = text.charCodeAt(pos)
      if (c === 32 || c === 10 || c === 13 || c === 9) pos++
      else break
    }
    this.pos = pos
  }

  /**
   * Reads a string at `pos` (an opening quote) and returns its canonical quoted form. A string
   * JSON.stringify would write back unchanged is its own canonical form: a slice of the input.
   */
  string(): string | undefined {
    const text = this.text
    const start = this.pos + 1
    CANONICAL_STRING_REST.lastIndex = start
    let canonical = false
    try {
      canonical = CANONICAL_STRING_REST.test(text)
    } catch {
      // An engine whose regex backtrack stack runs out: the slow path reads any length.
    }
    if (canonical) {
      this.pos = CANONICAL_STRING_REST.lastIndex
      return text.slice(start - 1, this.pos)
    }
    return this.slowString(start)
  }

  /** Strings with escapes, control characters or non-ASCII text: decode, NFC, re-quote. */
  private slowString(start: number): string | undefined {
    const text = this.text
    let decoded = ''
    let pos = start
    for (;;) {
      PLAIN_RUN.lastIndex = pos
      PLAIN_RUN.test(text)
      const runEnd = PLAIN_RUN.lastIndex
      if (runEnd > pos) decoded += text.slice(pos, runEnd)
      pos = runEnd
      const c = text.charCodeAt(pos)
      if (c === QUOTE) break
      if (c !== BACKSLASH) return undefined // control character or end of text
      const escape = text.charAt(pos + 1)
      const simple = ESCAPES[escape]
      if (simple !== undefined) {
        decoded += simple
        pos += 2
      } else if (escape === 'u') {
        const hex = text.slice(pos + 2, pos + 6)
        if (!HEX4.test(hex)) return undefined
        decoded += String.fromCharCode(parseInt(hex, 16))
        pos += 6
      } else {
        return undefined
      }
    }
    this.pos = pos + 1
    // normalize() leaves lone surrogates alone; JSON.stringify escapes them, so nothing throws.
    return JSON.stringify(NON_ASCII.test(decoded) ? decoded.normalize('NFC') : decoded)
  }

  /** Reads a number and writes it as `[-]digits[e<exp>]` with no leading or trailing zeros. */
  number(): string | undefined {
    const text = this.text
    const start = this.pos
    let pos = start
    const negative = text.charCodeAt(pos) === MINUS
    if (negative) pos++
    const intStart = pos
    const first = text.charCodeAt(pos)
    if (first === ZERO) pos++
    else if (first > ZERO && first <= NINE) while (isDigit(text.charCodeAt(pos))) pos++
    else return undefined
    const intEnd = pos
    let fracStart = pos
    let fracEnd = pos
    if (text.charCodeAt(pos) === DOT) {
      fracStart = ++pos
      while (isDigit(text.charCodeAt(pos))) pos++
      if (pos === fracStart) return undefined
      fracEnd = pos
    }
    let expText = ''
    const e = text.charCodeAt(pos)
    if (e === LOWER_E || e === UPPER_E) {
      const expStart = ++pos
      const sign = text.charCodeAt(pos)
      if (sign === PLUS || sign === MINUS) pos++
      const digitsStart = pos
      while (isDigit(text.charCodeAt(pos))) pos++
      if (pos === digitsStart) return undefined
      expText = text.slice(expStart, pos)
    }
    this.pos = pos
    if (fracEnd === fracStart && expText === '') {
      // Integer fast path: the common case is already canonical.
      if (first === ZERO) return '0'
      if (text.charCodeAt(intEnd - 1) !== ZERO) return text.slice(start, intEnd)
    }
    return canonicalNumber(
      negative,
      text.slice(intStart, intEnd) + text.slice(fracStart, fracEnd),
      fracEnd - fracStart,
      expText,
    )
  }

  literal(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false
    this.pos += word.length
    return true
  }
}

/** Reads `"key" :` and stores the key in `frame`; false when the text is not that. */
function readKey(reader: Reader, frame: Frame): boolean {
  if (reader.text.charCodeAt(reader.pos) !== QUOTE) return false
  const key = reader.string()
  if (key === undefined) return false
  reader.skipWhitespace()
  if (reader.text.charCodeAt(reader.pos) !== COLON) return false
  reader.pos++
  reader.skipWhitespace()
  frame.keys.push(key)
  return true
}

/**
 * The canonical text of `text` read as one JSON value, or undefined when it is not valid JSON.
 * Never throws on any input.
 */
export function canonicalJson(text: string): CanonicalJson | undefined {
  const reader = new Reader(text)
  const stack: Frame[] = []
  reader.skipWhitespace()
  let kind: JsonKind | undefined
  for (;;) {
    // Read one value, or open a container and go round to read its first member.
    const c = text.charCodeAt(reader.pos)
    let value: string | undefined
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      kind ??= c === OPEN_BRACE ? 'object' : 'array'
      reader.pos++
      reader.skipWhitespace()
      const closer = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET
      if (text.charCodeAt(reader.pos) === closer) {
        reader.pos++
        value = c === OPEN_BRACE ? '{}' : '[]'
      } else {
        const frame: Frame = { object: c === OPEN_BRACE, keys: [], values: [] }
        if (frame.object && !readKey(reader, frame)) return undefined
        stack.push(frame)
        continue
      }
    } else if (c === QUOTE) {
      kind ??= 'string'
      value = reader.string()
    } else if (c === MINUS || isDigit(c)) {
      kind ??= 'number'
      value = reader.number()
    } else if (reader.literal('true')) {
      kind ??= 'boolean'
      value = 'true'
    } else if (reader.literal('false')) {
      kind ??= 'boolean'
      value = 'false'
    } else if (reader.literal('null')) {
      kind ??= 'null'
      value = 'null'
    }
    if (value === undefined) return undefined
    // Hand the finished value to its container; close containers that end here.
    for (;;) {
      const frame = stack[stack.length - 1]
      reader.skipWhitespace()
      if (frame === undefined) {
        return reader.pos === text.length && kind !== undefined ? { kind, text: value } : undefined
      }
      frame.values.push(frame.object ? (frame.keys[frame.keys.length - 1] as string) + ':' + value : value)
      const next = text.charCodeAt(reader.pos)
      if (next === COMMA) {
        reader.pos++
        reader.skipWhitespace()
        if (frame.object && !readKey(reader, frame)) return undefined
        break
      }
      if (next !== (frame.object ? CLOSE_BRACE : CLOSE_BRACKET)) return undefined
      reader.pos++
      stack.pop()
      value = frame.object ? closeObject(frame, stack.length) : closeArray(frame, stack.length)
    }
  }
}
