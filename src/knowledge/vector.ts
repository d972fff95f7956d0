/**
 * Vector search by cosine similarity over every chunk (exact, no approximate index: 10,000
 * chunks of 256-1,536 dimensions is a few million multiply-adds per query). Vectors are
 * normalised when added, so a query is one dot product per chunk. Negative similarity scores 0.
 */
import type { RankedHit } from './keyword.ts'

export interface VectorIndex {
  add(id: string, vector: ArrayLike<number>): void
  remove(ids: readonly string[]): void
  search(query: ArrayLike<number>, limit: number): RankedHit[]
  readonly size: number
  /** The dimensions of its vectors (0 while empty). */
  readonly dimensions: number
}

/** `vector` scaled to length 1 (all zeros stays all zeros). */
export function normalise(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector)
  let sum = 0
  for (const value of out) sum += value * value
  const length = Math.sqrt(sum)
  if (length > 0) for (let i = 0; i < out.length; i += 1) out[i] = (out[i] ?? 0) / length
  return out
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return dot(normalise(a), normalise(b))
}

function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length)
  let sum = 0
  for (let i = 0; i < n; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0)
  return sum
}

export function createVectorIndex(): VectorIndex {
  const vectors = new Map<string, Float32Array>()
  let dimensions = 0
  return {
    add(id, vector) {
      if (dimensions === 0) dimensions = vector.length
      // A vector of another model's size cannot be compared; it is left out, not mis-scored.
      if (vector.length === dimensions) vectors.set(id, normalise(vector))
    },
    remove(ids) {
      for (const id of ids) vectors.delete(id)
    },
    search(query, limit) {
      if (vectors.size === 0 || query.length !== dimensions) return []
      const q = normalise(query)
      const hits: RankedHit[] = []
      for (const [id, vector] of vectors) {
        const score = dot(q, vector)
        if (score > 0) hits.push({ id, score: Math.min(1, score) })
      }
      hits.sort((a, b) => b.score - a.score)
      return hits.slice(0, limit)
    },
    get size() {
      return vectors.size
    },
    get dimensions() {
      return dimensions
    },
  }
}
