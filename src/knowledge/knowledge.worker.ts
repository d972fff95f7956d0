/**
 * The browser's knowledge worker: chunks documents (with the demo's vectors) and holds the search
 * indexes, so indexing a large document and scoring a query never run on the page's thread.
 */
import { createKnowledgeWorkerLoop } from './workerLoop.ts'

interface WorkerScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  postMessage(message: unknown, transfer?: Transferable[]): void
}

const scope = self as unknown as WorkerScope
const handle = createKnowledgeWorkerLoop((reply, transfer) => scope.postMessage(reply, transfer ?? []))
scope.onmessage = (event) => handle(event.data)
