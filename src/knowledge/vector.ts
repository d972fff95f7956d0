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

/**
 * The `limit` best of `scores` (above 0), best first. One pass keeping a short sorted list: most
 * scores fall below its last entry and cost one comparison, cheaper than sorting 10,000 hits.
 */
function topScores(ids: readonly string[], scores: Float32Array, limit: number): RankedHit[] {
  const best: RankedHit[] = []
  for (let i = 0; i < scores.length; i += 1) {
    const score = scores[i] as number
    if (score <= 0 || (best.length >= limit && score <= (best[best.length - 1] as RankedHit).score)) continue
    let at = best.length
    while (at > 0 && (best[at - 1] as RankedHit).score < score) at -= 1
    best.splice(at, 0, { id: ids[i] as string, score: Math.min(1, score) })
    if (best.length > limit) best.pop()
  }
  return best
}

export function createVectorIndex(): VectorIndex {
  const vectors = new Map<string, Float32Array>()
  let dimensions = 0
  // A packed copy of every vector for the query loop, rebuilt after a change.
  let packed: { ids: string[]; matrix: Float32Array } | undefined
  const pack = () => {
    const ids = [...vectors.keys()]
    const matrix = new Float32Array(ids.length * dimensions)
    ids.forEach((id, row) => matrix.set(vectors.get(id) as Float32Array, row * dimensions))
    return { ids, matrix }
  }
  return {
    add(id, vector) {
      if (dimensions === 0) dimensions = vector.length
      // A vector of another model's size cannot be compared; it is left out, not mis-scored.
      if (vector.length === dimensions) {
        vectors.set(id, normalise(vector))
        packed = undefined
      }
    },
    remove(ids) {
      for (const id of ids) vectors.delete(id)
      packed = undefined
    },
    search(query, limit) {
      if (vectors.size === 0 || query.length !== dimensions) return []
      const q = normalise(query)
      packed ??= pack()
      const { ids, matrix } = packed
      const scores = new Float32Array(ids.length)
      for (let row = 0, offset = 0; row < ids.length; row += 1, offset += dimensions) {
        let sum = 0
        for (let d = 0; d < dimensions; d += 1) sum += (matrix[offset + d] as number) * (q[d] as number)
        scores[row] = sum
      }
      return topScores(ids, scores, limit)
    },
    get size() {
      return vectors.size
    },
    get dimensions() {
      return dimensions
    },
  }
}
