/**
 * The knowledge worker's message handling, apart from the worker global so it is tested
 * directly: each request is answered by id; a request it cannot read is answered `failed` when
 * it has an id and dropped otherwise. Bases are held by id with the stamp they were loaded at.
 */
import { chunkText } from './chunk.ts'
import { demoVector } from './demoVectors.ts'
import { createBaseIndex, type BaseIndex } from './search.ts'
import { isKnowledgeWorkerRequest, type KnowledgeWorkerReply } from './workerProtocol.ts'

export function createKnowledgeWorkerLoop(
  post: (reply: KnowledgeWorkerReply, transfer?: Transferable[]) => void,
): (data: unknown) => void {
  const bases = new Map<string, { stamp: number; index: BaseIndex }>()
  return (data) => {
    if (!isKnowledgeWorkerRequest(data)) {
      const id = typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined
      if (typeof id === 'number')
        post({ type: 'failed', id, message: 'The knowledge worker got a request it cannot read.' })
      return
    }
    try {
      switch (data.type) {
        case 'chunk': {
          const chunks = chunkText(data.text, {
            sizeChars: data.sizeChars,
            overlapChars: data.overlapChars,
          }).map(({ text }) => (data.demoVectors ? { text, vector: demoVector(text) } : { text }))
          const transfer = chunks.flatMap((c) => (c.vector === undefined ? [] : [c.vector.buffer]))
          post({ type: 'chunked', id: data.id, chunks }, transfer)
          return
        }
        case 'load': {
          const index = createBaseIndex(data.chunks)
          bases.set(data.baseId, { stamp: data.stamp, index })
          post({ type: 'loaded', id: data.id, size: index.size })
          return
        }
        case 'search': {
          const held = bases.get(data.baseId)
          if (held === undefined) {
            post({ type: 'notLoaded', id: data.id })
            return
          }
          const queryVector = data.queryVector === 'demo' ? demoVector(data.query) : data.queryVector
          const hits = held.index.search(data.query, {
            topK: data.topK,
            minScore: data.minScore,
            ...(queryVector === undefined ? {} : { queryVector }),
          })
          post({ type: 'results', id: data.id, hits })
          return
        }
        case 'drop':
          bases.delete(data.baseId)
          post({ type: 'dropped', id: data.id })
          return
      }
    } catch (error) {
      post({ type: 'failed', id: data.id, message: error instanceof Error ? error.message : String(error) })
    }
  }
}
