/**
 * The demo provider's embeddings: local, deterministic vectors made by hashing each word (and
 * CJK pair) into KNOWLEDGE_DEMO_VECTOR_DIMENSIONS buckets with a sign, weighted by 1 + log of its
 * count. Not a language model: texts that share words point the same way, which is enough for
 * the offline demo to show vector search and fusion working, with no network and no weights.
 */
import { KNOWLEDGE_DEMO_VECTOR_DIMENSIONS } from '../defaults.ts'
import { tokenize } from './tokenize.ts'
import { normalise } from './vector.ts'

/** FNV-1a, 32 bits: fast, stable across hosts. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export function demoVector(text: string, dimensions = KNOWLEDGE_DEMO_VECTOR_DIMENSIONS): Float32Array {
  const counts = new Map<string, number>()
  for (const word of tokenize(text)) counts.set(word, (counts.get(word) ?? 0) + 1)
  const vector = new Float32Array(dimensions)
  for (const [word, count] of counts) {
    const h = hash(word)
    const sign = h & 1 ? 1 : -1
    const bucket = (h >>> 1) % dimensions
    vector[bucket] = (vector[bucket] ?? 0) + sign * (1 + Math.log(count))
  }
  return normalise(vector)
}

export function demoVectors(texts: readonly string[]): Float32Array[] {
  return texts.map((text) => demoVector(text))
}
