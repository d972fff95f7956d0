// The Node sandbox worker thread. Plain JS on purpose: it must load fast under plain Node, tsx
// (the CLI) and vitest alike, so it imports the generated JS copies of the host-neutral core
// (generated/, see scripts/generate-sandbox.mjs). node-runner.ts starts it and terminates it on timeout or abort.
import { parentPort } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync'
import { createWorkerLoop } from './generated/workerLoop.mjs'

if (!parentPort) throw new Error('node-worker.mjs must run as a worker thread')
const port = parentPort

// In Node the variant reads its .wasm file from the package itself.
const handle = createWorkerLoop(
  (wasmMemory) => newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmMemory })),
  (message) => port.postMessage(message),
  () => performance.now(),
)
port.on('message', handle)
