/**
 * A knowledge port over bases held in this thread (the CLI's files, tests). A base that is not
 * held fails the node with KNOWLEDGE_BASE_MISSING and the host's own advice on adding it.
 */
import { FlowError, type KnowledgeSearch } from '../engine/index.ts'
import type { BaseIndex } from './search.ts'

export interface MemoryKnowledgeOptions {
  /** How to add a missing base on this host (a sentence). */
  howToAdd(base: string): string
  /** The query's vector for a base with vectors (same model as its chunks); absent: keyword only. */
  embedQuery?(base: string, query: string, signal: AbortSignal): Promise<ArrayLike<number> | undefined>
}

export function createMemoryKnowledge(
  bases: ReadonlyMap<string, BaseIndex>,
  options: MemoryKnowledgeOptions,
): KnowledgeSearch {
  return {
    async search({ base, query, topK, minScore, nodeId, signal }) {
      const index = bases.get(base)
      if (index === undefined) {
        throw new FlowError(
          'KNOWLEDGE_BASE_MISSING',
          `There is no knowledge base "${base}". ${options.howToAdd(base)}`,
          {
            nodeId,
            details: { base },
          },
        )
      }
      const queryVector = index.hasVectors ? await options.embedQuery?.(base, query, signal) : undefined
      return index.search(query, { topK, minScore, ...(queryVector === undefined ? {} : { queryVector }) })
    },
  }
}
