/**
 * The Node code runner (CLI and tests): QuickJS runs in a `node:worker_threads` Worker that is
 * terminated on timeout or abort, so not even a pathological script can block the CLI's event
 * loop. The worker file is plain JS (node-worker.mjs), which loads the same way under plain Node,
 * tsx and vitest.
 */
import { Worker } from 'node:worker_threads'
import { SANDBOX_NODE_WORKER_STACK_MB } from '../defaults.ts'
import { createPooledCodeRunner, type SandboxCodeRunner, type SandboxRunnerOptions } from './pool.ts'

const WORKER_URL = new URL('./node-worker.mjs', import.meta.url)

/** Creates the Node sandbox runner. Idle workers never keep the process alive. */
export function createNodeCodeRunner(options: SandboxRunnerOptions = {}): SandboxCodeRunner {
  return createPooledCodeRunner((events) => {
    const worker = new Worker(WORKER_URL, {
      // Do not inherit the parent's flags: under `tsx` they load its TypeScript loader into the
      // thread (~250 ms of CPU), and the worker is plain JS.
      execArgv: [],
      // QuickJS's 1 MB wasm stack needs far more native stack than V8's default to overflow cleanly.
      resourceLimits: { stackSizeMb: SANDBOX_NODE_WORKER_STACK_MB },
    })
    worker.on('message', (data: unknown) => events.message(data))
    worker.on('messageerror', () => events.failure('a message could not be read'))
    worker.on('error', (error: Error) => events.failure(error.message))
    worker.on('exit', (code: number) => events.failure(`the worker exited with code ${code}`))
    // After the listeners: attaching a 'message' listener refs the worker's port again.
    worker.unref()
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => void worker.terminate(),
    }
  }, options)
}
