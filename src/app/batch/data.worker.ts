/** The batch data worker: reads CSV/JSONL files off the page's thread (dataLoop.ts). */
import { createDataLoop } from './dataLoop.ts'

interface WorkerScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  postMessage(message: unknown): void
}

const scope = self as unknown as WorkerScope
const handle = createDataLoop((reply) => scope.postMessage(reply))
scope.onmessage = (event) => handle(event.data)
