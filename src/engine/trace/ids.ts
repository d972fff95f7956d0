/**
 * Trace and span ids derived from the run id: the same run always gives the same trace, so a
 * trace sent twice (a download, then `--otlp`) shows once in a collector. 32-bit FNV-1a rounds
 * with different seeds, as hex; never all zeros (an invalid id in OTLP).
 */

function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  // A final avalanche (murmur3's fmix32), so ids of similar keys differ in every digit.
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b) >>> 0
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35) >>> 0
  h ^= h >>> 16
  return h >>> 0
}

function hex(text: string, words: number): string {
  let out = ''
  for (let w = 0; w < words; w++)
    out += fnv1a(text, Math.imul(w + 1, 0x9e3779b9))
      .toString(16)
      .padStart(8, '0')
  return /^0+$/.test(out) ? `${out.slice(0, -1)}1` : out
}

/** 32 hex digits (16 bytes). */
export function traceIdOf(runId: string): string {
  return hex(`trace\u0000${runId}`, 4)
}

/** 16 hex digits (8 bytes), one per span key of the run. */
export function spanIdOf(runId: string, key: string): string {
  return hex(`span\u0000${runId}\u0000${key}`, 2)
}
