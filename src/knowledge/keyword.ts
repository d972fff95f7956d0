/**
 * Keyword search: BM25 through MiniSearch (maintained, no dependencies, ~7 KB gzip, runs in a
 * worker and in Node, scores with BM25+; wink-bm25-text-search needs its own NLP pipeline and
 * must be re-consolidated after every addition). Scores are divided by the best score of the
 * query, so the best keyword match scores 1 and the rest say how close they come to it.
 */
import MiniSearch from 'minisearch'
import { tokenize } from './tokenize.ts'

/** A chunk as the indexes see it. */
export interface IndexedChunk {
  id: string
  text: string
}

export interface RankedHit {
  id: string
  /** In [0, 1], higher is better. */
  score: number
}

export interface KeywordIndex {
  add(chunks: readonly IndexedChunk[]): void
  remove(ids: readonly string[]): void
  search(query: string, limit: number): RankedHit[]
  readonly size: number
}

export function createKeywordIndex(): KeywordIndex {
  const index = new MiniSearch<IndexedChunk>({
    fields: ['text'],
    storeFields: [],
    tokenize,
    // tokenize() already lower-cases; terms are kept as they are.
    processTerm: (term) => term,
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false },
  })
  return {
    add: (chunks) => index.addAll(chunks),
    remove: (ids) => {
      for (const id of ids) if (index.has(id)) index.discard(id)
    },
    search(query, limit) {
      const found = index.search(query)
      const best = found[0]?.score ?? 0
      if (best <= 0) return []
      return found.slice(0, limit).map((hit) => ({ id: String(hit.id), score: hit.score / best }))
    },
    get size() {
      return index.documentCount
    },
  }
}
