/**
 * The browser's knowledge port: bases from IndexedDB, searched in the knowledge worker (each
 * base loaded into it once per change). A base made with the demo's vectors is queried with the
 * demo's vector of the query too, so keyword and vector ranks are fused offline; a base made
 * with a provider's embeddings model has the query embedded by the same model, on the page.
 */
import { FlowError, type FetchLike, type KnowledgeSearch } from '../../engine/index.ts'
import { embedTexts } from '../../knowledge/embeddings.ts'
import { knowledgeWorker } from '../../knowledge/browserWorker.ts'
import type { KnowledgeWorkerClient } from '../../knowledge/workerClient.ts'
import type { WardflowDb } from '../../storage/db.ts'
import { getKnowledgeBase, loadKnowledgeChunks } from '../../storage/repositories/knowledge.ts'
import type { EmbedderFor } from './embedders.ts'

/** What a base made with a provider's model needs: who embeds, and the page's fetch. */
export interface QueryEmbedding {
  embedderFor: EmbedderFor
  fetch: FetchLike
}

export function missingBaseError(base: string, nodeId: string): FlowError {
  return new FlowError(
    'KNOWLEDGE_BASE_MISSING',
    `There is no knowledge base "${base}" in this browser. Add it: Knowledge in the toolbar, then New base with the id "${base}", then drop its documents.`,
    { nodeId, details: { base } },
  )
}

export function createBrowserKnowledge(
  db: () => Promise<WardflowDb>,
  worker: () => KnowledgeWorkerClient = knowledgeWorker,
  embedding?: QueryEmbedding,
): KnowledgeSearch {
  return {
    async search({ base, query, topK, minScore, nodeId, signal }) {
      const database = await db()
      const row = await getKnowledgeBase(database, base)
      if (row === undefined) throw missingBaseError(base, nodeId)
      try {
        let queryVector: number[] | 'demo' | undefined = row.embedding.kind === 'demo' ? 'demo' : undefined
        if (row.embedding.kind === 'provider') {
          if (embedding === undefined)
            throw new FlowError(
              'KNOWLEDGE_FAILED',
              `Knowledge base "${base}" needs its provider to embed the query.`,
            )
          const embedder = await embedding.embedderFor(row.embedding, base)
          if (embedder !== undefined) {
            const [vector] = await embedTexts(embedder, [query], embedding.fetch, signal)
            if (vector !== undefined) queryVector = Array.from(vector)
          }
        }
        const hits = await worker().search(
          {
            id: row.id,
            stamp: row.updatedAt,
            chunks: async () =>
              (await loadKnowledgeChunks(database, row.id)).map(({ id, text, source, vector }) => ({
                id,
                text,
                source,
                ...(vector === undefined ? {} : { vector }),
              })),
          },
          {
            query,
            topK,
            minScore,
            ...(queryVector === undefined ? {} : { queryVector }),
          },
        )
        return hits.map(({ text, source, score }) => ({ text, source, score }))
      } catch (cause) {
        if (cause instanceof FlowError) throw cause
        const reason = cause instanceof Error ? cause.message : String(cause)
        throw new FlowError('KNOWLEDGE_FAILED', `Searching knowledge base "${base}" failed: ${reason}`, {
          nodeId,
          cause,
        })
      }
    },
  }
}
