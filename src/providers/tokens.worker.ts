/**
 * The browser's token worker: loads the o200k_base encoding and counts tokens for the page
 * (tokenWorker.ts), so neither parsing the table nor counting a long reply runs on the page's
 * main thread.
 */
import { loadTokenCounter } from './tokens.ts'
import { createTokenWorkerLoop } from './tokenWorkerLoop.ts'

interface WorkerScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  postMessage(message: unknown): void
}

const scope = self as unknown as WorkerScope
const handle = createTokenWorkerLoop((message) => scope.postMessage(message), loadTokenCounter)
scope.onmessage = (event) => handle(event.data)
