/**
 * The page's knowledge worker client (made once). Vite bundles the worker where
 * `new Worker(new URL(...))` is written, and resolves it against the page's base.
 */
import { browserWorkerPort } from '../platform/workerPort.ts'
import { createKnowledgeWorkerClient, type KnowledgeWorkerClient } from './workerClient.ts'
import type { KnowledgeWorkerRequest } from './workerProtocol.ts'

let shared: KnowledgeWorkerClient | undefined

export function knowledgeWorker(): KnowledgeWorkerClient {
  shared ??= createKnowledgeWorkerClient((events) => {
    const worker = new Worker(new URL('./knowledge.worker.ts', import.meta.url), {
      type: 'module',
      name: 'knowledge.worker',
    })
    const port = browserWorkerPort<KnowledgeWorkerRequest>(worker, events)
    return { ...port, postTransfer: (message, transfer) => worker.postMessage(message, transfer) }
  })
  return shared
}
