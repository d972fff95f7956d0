/**
 * The browser sandbox worker: loads QuickJS (wasm) into a capped memory and runs requests from
 * worker-runner.ts. The page sends the wasm module it compiled (wasmPreload.ts); without one,
 * or when it cannot be used, the worker fetches the wasm itself. The page terminates this
 * worker on timeout or abort. The user's code runs in QuickJS and reaches none of this
 * worker's globals; as defence in depth, once QuickJS is loaded the worker also drops its own
 * network, storage and messaging APIs.
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { isWasmModuleMessage } from './wasmPreload.ts'
import { createWorkerLoop } from './workerLoop.ts'

interface WorkerScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  onmessageerror: (() => void) | null
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

/** QuickJS from the page's module when there is one and it instantiates, else from the wasm file. */
async function loadQuickJS(wasmMemory: WebAssembly.Memory) {
  const wasmModule = await compiledByPage
  if (wasmModule) {
    try {
      return await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmModule, wasmMemory }))
    } catch {
      // Fall through: the file is the reference, and a failure there is reported as before.
    }
  }
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmLocation, wasmMemory }))
}

const handle = createWorkerLoop(
  async (wasmMemory) => {
    const module = await loadQuickJS(wasmMemory)
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
// A message this worker cannot read (a module it cannot take): load the wasm itself. Host
// messages are plain data, so the page's module is the only one that can fail here.
scope.onmessageerror = () => receiveCompiled(null)
