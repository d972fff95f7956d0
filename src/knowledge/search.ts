/**
 * One knowledge base in memory: its chunks, their keyword index and, when they have vectors,
 * their vector index. A query ranks by each index, fuses the lists by reciprocal rank and keeps
 * the `topK` best whose score is at least `minScore`. Used by the browser's knowledge worker and
 * by the CLI in-process.
 */
import { KNOWLEDGE_CANDIDATES_PER_RESULT } from '../defaults.ts'
import { fuseRanks } from './fuse.ts'
import { createKeywordIndex, type RankedHit } from './keyword.ts'
import { createVectorIndex } from './vector.ts'

/** A chunk with what a result cites. */
export interface StoredChunk {
  id: string
  text: string
  /** The document's name (a path relative to the CLI's folder). */
  source: string
  vector?: ArrayLike<number>
}

export interface SearchHit {
  id: string
  text: string
  source: string
  /** In [0, 1], higher is better. */
  score: number
}

export interface SearchOptions {
  topK: number
  minScore: number
  /** The query's embedding, by the same model as the chunks' vectors. */
  queryVector?: ArrayLike<number>
}

export interface BaseIndex {
  add(chunks: readonly StoredChunk[]): void
  remove(ids: readonly string[]): void
  search(query: string, options: SearchOptions): SearchHit[]
  readonly size: number
  /** True when its chunks carry vectors (a query then needs a vector too for vector search). */
  readonly hasVectors: boolean
}

export function createBaseIndex(chunks: readonly StoredChunk[] = []): BaseIndex {
  const byId = new Map<string, StoredChunk>()
  const keyword = createKeywordIndex()
  const vectors = createVectorIndex()
  const index: BaseIndex = {
    add(added) {
      const fresh = added.filter((chunk) => !byId.has(chunk.id))
      for (const chunk of fresh) {
        byId.set(chunk.id, chunk)
        if (chunk.vector !== undefined) vectors.add(chunk.id, chunk.vector)
      }
      keyword.add(fresh.map(({ id, text }) => ({ id, text })))
    },
    remove(ids) {
      keyword.remove(ids)
      vectors.remove(ids)
      for (const id of ids) byId.delete(id)
    },
    search(query, { topK, minScore, queryVector }) {
      const limit = Math.max(1, topK) * KNOWLEDGE_CANDIDATES_PER_RESULT
      const lists: RankedHit[][] = [keyword.search(query, limit)]
      if (queryVector !== undefined && vectors.size > 0) lists.push(vectors.search(queryVector, limit))
      const hits: SearchHit[] = []
      for (const fused of fuseRanks(lists)) {
        if (hits.length >= topK) break
        const chunk = byId.get(fused.id)
        if (chunk === undefined || fused.score < minScore) continue
        hits.push({ id: chunk.id, text: chunk.text, source: chunk.source, score: fused.score })
      }
      return hits
    },
    get size() {
      return byId.size
    },
    get hasVectors() {
      return vectors.size > 0
    },
  }
  index.add(chunks)
  return index
}
