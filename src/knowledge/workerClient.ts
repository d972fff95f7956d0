/**
 * The page's side of the knowledge worker: requests by id, answers checked
 * (isKnowledgeWorkerReply), each base loaded into the worker once per stamp (its updatedAt)
 * and loaded again when a search finds it changed or missing. The worker starts with the first
 * request; a crash fails the requests waiting and the next request starts a new worker.
 */
import type { WorkerPort, WorkerPortEvents } from '../platform/workerPort.ts'
import {
  isKnowledgeWorkerReply,
  type KnowledgeWorkerReply,
  type KnowledgeWorkerRequest,
  type LoadRequest,
  type WorkerHit,
} from './workerProtocol.ts'

/** Hands a message to the worker; `transfer` moves vector buffers instead of copying them. */
export interface KnowledgeWorkerPort extends WorkerPort<KnowledgeWorkerRequest> {
  postTransfer?(message: KnowledgeWorkerRequest, transfer: Transferable[]): void
}

export type KnowledgeWorkerFactory = (events: WorkerPortEvents) => KnowledgeWorkerPort

/** What a search needs to (re)load a base into the worker. */
export interface BaseSource {
  id: string
  stamp: number
  chunks(): Promise<LoadRequest['chunks']>
}

export interface KnowledgeWorkerClient {
  chunk(
    text: string,
    options: { sizeChars: number; overlapChars: number; demoVectors: boolean },
  ): Promise<Array<{ text: string; vector?: Float32Array }>>
  search(
    base: BaseSource,
    query: { query: string; topK: number; minScore: number; queryVector?: number[] | 'demo' },
  ): Promise<WorkerHit[]>
  /** Forgets a base (deleted, or changed and to be loaded again on its next search). */
  drop(baseId: string): Promise<void>
  dispose(): void
}

type Body<T> = T extends KnowledgeWorkerRequest ? Omit<T, 'id'> : never

export function createKnowledgeWorkerClient(spawn: KnowledgeWorkerFactory): KnowledgeWorkerClient {
  let port: KnowledgeWorkerPort | undefined
  let nextId = 1
  const waiting = new Map<
    number,
    { resolve(reply: KnowledgeWorkerReply): void; reject(error: Error): void }
  >()
  const loaded = new Map<string, number>()

  const events: WorkerPortEvents = {
    message(data) {
      if (!isKnowledgeWorkerReply(data)) {
        events.failure('it sent a message that is not a knowledge reply')
        return
      }
      const entry = waiting.get(data.id)
      waiting.delete(data.id)
      entry?.resolve(data)
    },
    failure(reason) {
      port?.terminate()
      port = undefined
      loaded.clear()
      const error = new Error(`The knowledge worker stopped: ${reason}`)
      for (const entry of waiting.values()) entry.reject(error)
      waiting.clear()
    },
  }

  function request(
    body: Body<KnowledgeWorkerRequest>,
    transfer: Transferable[] = [],
  ): Promise<KnowledgeWorkerReply> {
    port ??= spawn(events)
    const id = nextId++
    const message = { ...body, id } as KnowledgeWorkerRequest
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject })
      if (transfer.length > 0 && port?.postTransfer !== undefined) port.postTransfer(message, transfer)
      else port?.post(message)
    })
  }

  function failed(reply: KnowledgeWorkerReply): never {
    throw new Error(reply.type === 'failed' ? reply.message : `The knowledge worker answered ${reply.type}.`)
  }

  async function load(base: BaseSource): Promise<void> {
    const chunks = await base.chunks()
    const reply = await request({ type: 'load', baseId: base.id, stamp: base.stamp, chunks })
    if (reply.type !== 'loaded') failed(reply)
    loaded.set(base.id, base.stamp)
  }

  return {
    async chunk(text, options) {
      const reply = await request({ type: 'chunk', text, ...options })
      return reply.type === 'chunked' ? reply.chunks : failed(reply)
    },
    async search(base, query) {
      if (loaded.get(base.id) !== base.stamp) await load(base)
      let reply = await request({ type: 'search', baseId: base.id, ...query })
      if (reply.type === 'notLoaded') {
        await load(base)
        reply = await request({ type: 'search', baseId: base.id, ...query })
      }
      return reply.type === 'results' ? reply.hits : failed(reply)
    },
    async drop(baseId) {
      loaded.delete(baseId)
      if (port === undefined) return
      const reply = await request({ type: 'drop', baseId })
      if (reply.type !== 'dropped') failed(reply)
    },
    dispose() {
      events.failure('it was closed')
    },
  }
}
