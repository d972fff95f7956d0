/**
 * The browser code runner: QuickJS runs in a module Web Worker (quickjs.worker.ts). The page
 * enforces the deadline by terminating the worker, so `while(true){}` never freezes the canvas.
 * The page compiles the wasm once and hands the module to each worker (wasmPreload.ts).
 */
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { SANDBOX_BROWSER_STACK_LIMIT_BYTES } from '../defaults.ts'
import { browserWorkerPort } from '../platform/workerPort.ts'
import { createPooledCodeRunner, type SandboxCodeRunner, type SandboxRunnerOptions } from './pool.ts'
import { createWasmCompiler, type WasmModuleMessage } from './wasmPreload.ts'

/** One compile per page, shared by every runner and worker. */
const compiledQuickJS = createWasmCompiler(wasmLocation)

/**
 * Creates the browser sandbox runner. The QuickJS stack limit defaults to the browser value:
 * a worker's native stack is fixed, and QuickJS must overflow cleanly before it does.
 */
export function createWorkerCodeRunner(options: SandboxRunnerOptions = {}): SandboxCodeRunner {
  return createPooledCodeRunner(
    (events) => {
      const worker = new Worker(new URL('./quickjs.worker.ts', import.meta.url), {
        type: 'module',
        name: 'quickjs.worker',
      })
      // The worker waits for this message before loading QuickJS. A worker terminated
      // meanwhile drops it; one that cannot be sent the module is told to load the wasm itself.
      const send = (module: WebAssembly.Module | null) =>
        worker.postMessage({ type: 'wasm', module } satisfies WasmModuleMessage)
      void compiledQuickJS().then((module) => {
        try {
          send(module ?? null)
        } catch {
          send(null)
        }
      })
      return browserWorkerPort(worker, events)
    },
    { ...options, limits: { stackBytes: SANDBOX_BROWSER_STACK_LIMIT_BYTES, ...options.limits } },
  )
}
