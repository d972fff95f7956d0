// GENERATED from src/sandbox/workerLoop.ts by scripts/generate-sandbox.mjs: do not edit.
// Regenerate with `npm run generate`; tests/sandbox/generated-core.test.ts checks it is current.
import { runInQuickJS } from './quickjsCore.mjs'
const WASM_PAGE_BYTES = 65_536
/** Returns the handler for messages from the host. */
export function createWorkerLoop(load, post, now) {
  let module
  let memory
  let init
  let poisoned = false
  const memoryExhausted = () => {
    if (!memory || !init) return false
    // Past half of the room above the initial size: an allocation failure is the likely cause.
    return (
      memory.buffer.byteLength >= init.wasmInitialBytes + (init.wasmMaximumBytes - init.wasmInitialBytes) / 2
    )
  }
  return (data) => {
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
        (error) => post({ type: 'failed', message: messageOf(error) }),
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
function messageOf(error) {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200)
}
function isRecord(value) {
  return typeof value === 'object' && value !== null
}
function isCount(value) {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}
function parseInit(data) {
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
]
function parseRun(data) {
  if (!isRecord(data) || data.type !== 'run') return undefined
  const { id, code, bindingNames, bindingsJson, timeoutMs, interruptGraceMs, limits } = data
  if (typeof id !== 'string' || typeof code !== 'string' || typeof bindingsJson !== 'string') return undefined
  if (!Array.isArray(bindingNames) || !bindingNames.every((n) => typeof n === 'string')) return undefined
  if (!isCount(timeoutMs) || !isCount(interruptGraceMs) || !isRecord(limits)) return undefined
  const checked = {}
  for (const key of LIMIT_KEYS) {
    const value = limits[key]
    if (!isCount(value)) return undefined
    checked[key] = value
  }
  return {
    type: 'run',
    id,
    code,
    bindingNames: bindingNames,
    bindingsJson,
    timeoutMs,
    interruptGraceMs,
    limits: checked,
  }
}
