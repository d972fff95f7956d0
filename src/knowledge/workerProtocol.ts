/**
 * Messages between the page and the knowledge worker (knowledge.worker.ts). The worker does
 * the CPU work: cutting a document into chunks (with the demo's vectors when asked), holding
 * each base's search index, and answering queries. The page keeps IndexedDB and the network.
 * Plain types and hand-written guards here: the worker imports this file, and a schema library
 * would ride along into its bundle.
 */
export interface ChunkRequest {
  type: 'chunk'
  id: number
  text: string
  sizeChars: number
  overlapChars: number
  /** Make the demo's local vectors for each chunk. */
  demoVectors: boolean
}

export interface LoadRequest {
  type: 'load'
  id: number
  baseId: string
  /** The base's updatedAt: a query naming another stamp needs a fresh load. */
  stamp: number
  chunks: Array<{ id: string; text: string; source: string; vector?: Float32Array }>
}

export interface SearchRequest {
  type: 'search'
  id: number
  baseId: string
  query: string
  topK: number
  minScore: number
  /** A provider's vector for the query; 'demo' asks the worker to make the demo's. */
  queryVector?: number[] | 'demo'
}

export interface DropRequest {
  type: 'drop'
  id: number
  baseId: string
}

export type KnowledgeWorkerRequest = ChunkRequest | LoadRequest | SearchRequest | DropRequest

export interface WorkerHit {
  id: string
  text: string
  source: string
  score: number
}

export type KnowledgeWorkerReply =
  | { type: 'chunked'; id: number; chunks: Array<{ text: string; vector?: Float32Array }> }
  | { type: 'loaded'; id: number; size: number }
  | { type: 'results'; id: number; hits: WorkerHit[] }
  /** The base is not loaded (or with another stamp): load it, then ask again. */
  | { type: 'notLoaded'; id: number }
  | { type: 'dropped'; id: number }
  | { type: 'failed'; id: number; message: string }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** The worker's check of what it is sent. */
export function isKnowledgeWorkerRequest(data: unknown): data is KnowledgeWorkerRequest {
  if (!isRecord(data) || !isNumber(data.id)) return false
  switch (data.type) {
    case 'chunk':
      return (
        typeof data.text === 'string' &&
        isNumber(data.sizeChars) &&
        isNumber(data.overlapChars) &&
        typeof data.demoVectors === 'boolean'
      )
    case 'load':
      return (
        typeof data.baseId === 'string' &&
        isNumber(data.stamp) &&
        Array.isArray(data.chunks) &&
        data.chunks.every(
          (chunk: unknown) =>
            isRecord(chunk) &&
            typeof chunk.id === 'string' &&
            typeof chunk.text === 'string' &&
            typeof chunk.source === 'string' &&
            (chunk.vector === undefined || chunk.vector instanceof Float32Array),
        )
      )
    case 'search':
      return (
        typeof data.baseId === 'string' &&
        typeof data.query === 'string' &&
        isNumber(data.topK) &&
        isNumber(data.minScore) &&
        (data.queryVector === undefined ||
          data.queryVector === 'demo' ||
          (Array.isArray(data.queryVector) && data.queryVector.every(isNumber)))
      )
    case 'drop':
      return typeof data.baseId === 'string'
    default:
      return false
  }
}

/** The page's check of what the worker sends. */
export function isKnowledgeWorkerReply(data: unknown): data is KnowledgeWorkerReply {
  if (!isRecord(data) || !isNumber(data.id)) return false
  switch (data.type) {
    case 'chunked':
      return (
        Array.isArray(data.chunks) &&
        data.chunks.every(
          (chunk: unknown) =>
            isRecord(chunk) &&
            typeof chunk.text === 'string' &&
            (chunk.vector === undefined || chunk.vector instanceof Float32Array),
        )
      )
    case 'loaded':
      return isNumber(data.size)
    case 'results':
      return (
        Array.isArray(data.hits) &&
        data.hits.every(
          (hit: unknown) =>
            isRecord(hit) &&
            typeof hit.id === 'string' &&
            typeof hit.text === 'string' &&
            typeof hit.source === 'string' &&
            isNumber(hit.score),
        )
      )
    case 'notLoaded':
    case 'dropped':
      return true
    case 'failed':
      return typeof data.message === 'string'
    default:
      return false
  }
}
