/**
 * The browser sandbox worker: loads QuickJS (wasm) into a capped memory and runs requests from
 * worker-runner.ts. The page sends the compiled wasm module first (wasmPreload.ts); when it
 * could not compile it, the worker fetches the wasm itself. The page terminates this worker on timeout or abort. The user's code runs in
 * QuickJS and reaches none of this worker's globals; as defence in depth, once QuickJS is
 * loaded the worker also drops its own network, storage and messaging APIs.
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { isWasmModuleMessage } from './wasmPreload.ts'
import { createWorkerLoop } from './workerLoop.ts'

interface WorkerScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  postMessage(message: unknown): void
}

const scope = self as unknown as WorkerScope

/** Globals QuickJS never needs after loading; removing them leaves nothing to reach even in theory. */
const DROPPED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'importScripts',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'RTCPeerConnection',
]

function dropNetworkAndStorage(): void {
  for (const name of DROPPED_GLOBALS) {
    try {
      Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false })
    } catch {
      // A non-configurable global stays; QuickJS cannot reach it anyway.
    }
  }
}

let receiveCompiled: (module: WebAssembly.Module | null) => void = () => {}
const compiledByPage = new Promise<WebAssembly.Module | null>((resolve) => (receiveCompiled = resolve))

const handle = createWorkerLoop(
  async (wasmMemory) => {
    const wasmModule = await compiledByPage
    const module = await newQuickJSWASMModuleFromVariant(
      newVariant(releaseSyncVariant, wasmModule ? { wasmModule, wasmMemory } : { wasmLocation, wasmMemory }),
    )
    dropNetworkAndStorage()
    return module
  },
  (message) => scope.postMessage(message),
  () => performance.now(),
)

scope.onmessage = (event) => {
  if (isWasmModuleMessage(event.data)) receiveCompiled(event.data.module)
  else handle(event.data)
}
