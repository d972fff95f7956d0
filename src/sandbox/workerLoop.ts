/**
 * The message loop of a sandbox worker, host-neutral: the browser Web Worker and the Node worker
 * thread only supply how QuickJS is loaded and how messages are posted. The host is the only
 * sender, yet requests are still checked before use so a malformed one is ignored, not run.
 *
 * No runtime imports besides the core: transpiled to plain JS for the Node worker (generated/, by `npm run generate`).
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten-core'
import type { InitMessage, RunMessage, SandboxLimits, WorkerMessage } from './protocol.ts'
import { runInQuickJS } from './quickjsCore.ts'

const WASM_PAGE_BYTES = 65_536

/** Loads QuickJS into the given (capped) wasm memory. */
export type ModuleLoader = (memory: WebAssembly.Memory) => Promise<QuickJSWASMModule>

/** Returns the handler for messages from the host. */
export function createWorkerLoop(
  load: ModuleLoader,
  post: (message: WorkerMessage) => void,
  now: () => number,
): (data: unknown) => void {
  let module: QuickJSWASMModule | undefined
  let memory: WebAssembly.Memory | undefined
  let init: InitMessage | undefined
  let poisoned = false

  const memoryExhausted = (): boolean => {
    if (!memory || !init) return false
    // Past half of the room above the initial size: an allocation failure is the likely cause.
    return (
      memory.buffer.byteLength >= init.wasmInitialBytes + (init.wasmMaximumBytes - init.wasmInitialBytes) / 2
    )
  }

  return (data: unknown) => {
    const initMessage = parseInit(data)
    if (initMessage) {
      if (init) return
      init = initMessage
      try {
        memory = new WebAssembly.Memory({
          initial: Math.ceil(init.wasmInitialBytes / WASM_PAGE_BYTES),
          maximum: Math.ceil(init.wasmMaximumBytes / WASM_PAGE_BYTES),
        })
      } catch (error) {
        post({ type: 'failed', message: messageOf(error) })
        return
      }
      load(memory).then(
        (loaded) => {
          module = loaded
          post({ type: 'ready' })
        },
        (error: unknown) => post({ type: 'failed', message: messageOf(error) }),
      )
      return
    }
    const run = parseRun(data)
    if (!run) return
    if (!module || poisoned) {
      const message = poisoned ? 'The sandbox must be restarted.' : 'The sandbox is not loaded yet.'
      post({
        type: 'done',
        id: run.id,
        outcome: { ok: false, code: 'INTERNAL', message, logs: [], recycle: true },
      })
      return
    }
    const outcome = runInQuickJS(module, run, { now, memoryExhausted })
    if (outcome.recycle) poisoned = true
    post({ type: 'done', id: run.id, outcome })
  }
}

/** Load failures are our own short texts; the cut keeps them within any sane maxErrorChars. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function parseInit(data: unknown): InitMessage | undefined {
  if (!isRecord(data) || data.type !== 'init') return undefined
  const { wasmInitialBytes, wasmMaximumBytes } = data
  if (!isCount(wasmInitialBytes) || !isCount(wasmMaximumBytes) || wasmMaximumBytes < wasmInitialBytes)
    return undefined
  return { type: 'init', wasmInitialBytes, wasmMaximumBytes }
}

const LIMIT_KEYS = [
  'memoryBytes',
  'stackBytes',
  'maxLogLines',
  'maxLogLineChars',
  'maxResultChars',
  'maxErrorChars',
] as const

function parseRun(data: unknown): RunMessage | undefined {
  if (!isRecord(data) || data.type !== 'run') return undefined
  const { id, code, bindingNames, bindingsJson, timeoutMs, interruptGraceMs, limits } = data
  if (typeof id !== 'string' || typeof code !== 'string' || typeof bindingsJson !== 'string') return undefined
  if (!Array.isArray(bindingNames) || !bindingNames.every((n) => typeof n === 'string')) return undefined
  if (!isCount(timeoutMs) || !isCount(interruptGraceMs) || !isRecord(limits)) return undefined
  const checked: Partial<SandboxLimits> = {}
  for (const key of LIMIT_KEYS) {
    const value = limits[key]
    if (!isCount(value)) return undefined
    checked[key] = value
  }
  return {
    type: 'run',
    id,
    code,
    bindingNames: bindingNames as string[],
    bindingsJson,
    timeoutMs,
    interruptGraceMs,
    limits: checked as SandboxLimits,
  }
}
