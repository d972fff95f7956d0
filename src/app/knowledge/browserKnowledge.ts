/**
 * The browser's knowledge port: bases from IndexedDB, searched in the knowledge worker (each
 * base loaded into it once per change). A base made with the demo's vectors is queried with the
 * demo's vector of the query too, so keyword and vector ranks are fused offline.
 */
import { FlowError, type KnowledgeSearch } from '../../engine/index.ts'
import { knowledgeWorker } from '../../knowledge/browserWorker.ts'
import type { KnowledgeWorkerClient } from '../../knowledge/workerClient.ts'
import type { WardflowDb } from '../../storage/db.ts'
import { getKnowledgeBase, loadKnowledgeChunks } from '../../storage/repositories/knowledge.ts'

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
): KnowledgeSearch {
  return {
    async search({ base, query, topK, minScore, nodeId }) {
      const database = await db()
      const row = await getKnowledgeBase(database, base)
      if (row === undefined) throw missingBaseError(base, nodeId)
      try {
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
            ...(row.embedding.kind === 'demo' ? { queryVector: 'demo' as const } : {}),
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
