/**
 * The browser code runner: QuickJS runs in a module Web Worker (quickjs.worker.ts). The page
 * enforces the deadline by terminating the worker, so `while(true){}` never freezes the canvas.
 */
import { SANDBOX_BROWSER_STACK_LIMIT_BYTES } from '../defaults.ts'
import { browserWorkerPort } from '../platform/workerPort.ts'
import { createPooledCodeRunner, type SandboxCodeRunner, type SandboxRunnerOptions } from './pool.ts'

/**
 * Creates the browser sandbox runner. The QuickJS stack limit defaults to the browser value:
 * a worker's native stack is fixed, and QuickJS must overflow cleanly before it does.
 */
export function createWorkerCodeRunner(options: SandboxRunnerOptions = {}): SandboxCodeRunner {
  return createPooledCodeRunner(
    (events) =>
      browserWorkerPort(
        new Worker(new URL('./quickjs.worker.ts', import.meta.url), {
          type: 'module',
          name: 'quickjs.worker',
        }),
        events,
      ),
    { ...options, limits: { stackBytes: SANDBOX_BROWSER_STACK_LIMIT_BYTES, ...options.limits } },
  )
}
