/**
 * The browser's token estimator: counts in a module Web Worker (tokens.worker.ts), started by
 * the page's first count. Vite bundles the worker with its own copy of the encoding and resolves
 * its URL against the page's base, so it loads under a sub-path too (the GitHub Pages build).
 */
import type { TokenEstimator } from '../engine/index.ts'
import { browserWorkerPort } from '../platform/workerPort.ts'
import { loadTokenCounter } from './tokens.ts'
import { createWorkerTokenEstimator, type WorkerTokenEstimator } from './tokenWorkerClient.ts'

let shared: WorkerTokenEstimator | undefined

/** The page's estimator (made once); its worker starts with the first count. */
export function loadBrowserTokenEstimator(): Promise<TokenEstimator> {
  shared ??= createWorkerTokenEstimator({
    spawn: (events) =>
      browserWorkerPort(
        new Worker(new URL('./tokens.worker.ts', import.meta.url), { type: 'module', name: 'tokens.worker' }),
        events,
      ),
    fallback: loadTokenCounter,
    // Counting still works, but on the page's thread (a long reply then stalls the page
    // briefly): say why, for whoever looks at the console.
    onFallback: (reason) => console.warn(`Wardflow counts tokens on the page's main thread: ${reason}`),
  })
  return Promise.resolve(shared.estimate)
}
