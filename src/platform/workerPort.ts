/**
 * A started worker seen through what its hosts do with it (the sandbox pool, the token
 * estimator): post a message, terminate it, and hear its messages and failures. One shape for
 * browser Web Workers and Node worker threads, so the hosts are tested with fakes.
 */

/** A started worker. */
export interface WorkerPort<Message> {
  post(message: Message): void
  terminate(): void
}

/** What a worker reports back; `failure` covers load errors, crashes and unreadable messages. */
export interface WorkerPortEvents {
  message(data: unknown): void
  failure(reason: string): void
}

/**
 * Wires a browser Web Worker to `events`. The caller creates the Worker: Vite bundles a worker
 * only where `new Worker(new URL('./x.ts', import.meta.url))` is written.
 */
export function browserWorkerPort<Message>(worker: Worker, events: WorkerPortEvents): WorkerPort<Message> {
  worker.onmessage = (event: MessageEvent<unknown>) => events.message(event.data)
  worker.onmessageerror = () => events.failure('a message could not be read')
  worker.onerror = (event: ErrorEvent) => {
    // Reported through `failure`; not also as an uncaught error on the page.
    event.preventDefault()
    events.failure(event.message || 'the worker failed to load')
  }
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => worker.terminate(),
  }
}
