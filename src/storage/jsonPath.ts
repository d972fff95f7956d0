/**
 * The JSON paths storage writes (`settings.providers[0].headers[1].value`, `a["odd key"]`):
 * parsing them back and reading/writing own properties only. Prototype keys are refused, so a
 * crafted path in an imported file cannot reach Object.prototype.
 */
export type JsonPathSegment = string | number

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor'])
const TOKEN = /^(?:\.?([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/

/** Segments of `path`, or undefined when it is not a path storage would write. */
export function parseJsonPath(path: string): JsonPathSegment[] | undefined {
  const segments: JsonPathSegment[] = []
  let rest = path
  while (rest !== '') {
    const match = TOKEN.exec(rest)
    if (match === null) return undefined
    if (match[1] !== undefined) segments.push(match[1])
    else if (match[2] !== undefined) segments.push(Number(match[2]))
    else {
      try {
        segments.push(JSON.parse(match[3] ?? '""') as string)
      } catch {
        return undefined
      }
    }
    rest = rest.slice(match[0].length)
  }
  return segments.some((s) => typeof s === 'string' && FORBIDDEN.has(s)) ? undefined : segments
}

function step(container: unknown, segment: JsonPathSegment): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? container[segment] : undefined
  if (typeof container !== 'object' || container === null || Array.isArray(container)) return undefined
  return Object.hasOwn(container, segment) ? (container as Record<string, unknown>)[segment] : undefined
}

/** The value at `segments` (own properties only), or undefined. */
export function getAtPath(root: unknown, segments: readonly JsonPathSegment[]): unknown {
  let current = root
  for (const segment of segments) current = step(current, segment)
  return current
}

/** Replaces the existing value at `segments`; does nothing when the path does not exist. */
export function setAtPath(root: unknown, segments: readonly JsonPathSegment[], value: unknown): void {
  const parent = getAtPath(root, segments.slice(0, -1))
  const last = segments[segments.length - 1]
  if (last === undefined || step(parent, last) === undefined) return
  if (typeof last === 'number' && Array.isArray(parent)) parent[last] = value
  else if (typeof last === 'string' && typeof parent === 'object' && parent !== null) {
    Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true })
  }
}
