/**
 * The host-neutral core and worker loop, in-process with the real QuickJS wasm: the in-VM
 * interrupt as the second line of defence, the capped wasm memory, and request checking.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync'
import { SANDBOX_WASM_INITIAL_BYTES, SANDBOX_WASM_OVERHEAD_BYTES } from '../../src/defaults.ts'
import { defaultSandboxLimits } from '../../src/sandbox/pool.ts'
import type { RunMessage, WorkerMessage } from '../../src/sandbox/protocol.ts'
import { runInQuickJS, type CoreHost } from '../../src/sandbox/quickjsCore.ts'
import { createWorkerLoop } from '../../src/sandbox/workerLoop.ts'

const limits = defaultSandboxLimits()
const WASM_PAGE_BYTES = 65_536
let module: QuickJSWASMModule
let memory: WebAssembly.Memory

const host: CoreHost = { now: () => performance.now(), memoryExhausted: () => false }

function request(code: string, overrides: Partial<RunMessage> = {}): RunMessage {
  return {
    type: 'run',
    id: 'test',
    code,
    bindingNames: ['inputs'],
    bindingsJson: '{"inputs":{"n":2}}',
    timeoutMs: 5_000,
    interruptGraceMs: 0,
    limits,
    ...overrides,
  }
}

beforeAll(async () => {
  memory = new WebAssembly.Memory({
    initial: SANDBOX_WASM_INITIAL_BYTES / WASM_PAGE_BYTES,
    maximum: (limits.memoryBytes + SANDBOX_WASM_OVERHEAD_BYTES) / WASM_PAGE_BYTES,
  })
  module = await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmMemory: memory }))
})

describe('runInQuickJS', () => {
  it('evaluates the code as an async function body over JSON bindings', () => {
    const outcome = runInQuickJS(
      module,
      request('console.log("n is", inputs.n)\nreturn inputs.n ** 10'),
      host,
    )
    expect(outcome).toEqual({ ok: true, resultJson: '1024', logs: ['n is 2'], recycle: false })
  })

  it('stops an endless loop on its own through the interrupt handler, and stays usable', () => {
    const began = performance.now()
    const outcome = runInQuickJS(
      module,
      request('console.log("before")\nwhile (true) {}', { timeoutMs: 200 }),
      host,
    )
    expect(performance.now() - began).toBeGreaterThanOrEqual(195)
    // The logs written before the stop survive it.
    expect(outcome).toEqual({
      ok: false,
      code: 'SANDBOX_TIMEOUT',
      message: 'The code ran for more than 200 ms and was stopped.',
      logs: ['before'],
      recycle: false,
    })
    expect(runInQuickJS(module, request('return 1'), host)).toMatchObject({ ok: true, resultJson: '1' })
  })

  it('fires the interrupt only after the grace period, leaving the first move to the host', () => {
    const began = performance.now()
    runInQuickJS(module, request('while (true) {}', { timeoutMs: 100, interruptGraceMs: 150 }), host)
    expect(performance.now() - began).toBeGreaterThanOrEqual(245)
  })

  it('runs out of memory inside the capped wasm memory and asks to be recycled', () => {
    const outcome = runInQuickJS(
      module,
      request('const a = []\nwhile (true) a.push(new Float64Array(1e6))'),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, code: 'SANDBOX_MEMORY', recycle: true })
    expect(memory.buffer.byteLength).toBeLessThanOrEqual(limits.memoryBytes + SANDBOX_WASM_OVERHEAD_BYTES)
  })

  it('reports a thrown null as out-of-memory only when the heap is exhausted', () => {
    const exhausted: CoreHost = { ...host, memoryExhausted: () => true }
    expect(runInQuickJS(module, request('throw null'), host)).toMatchObject({ code: 'SANDBOX_ERROR' })
    expect(runInQuickJS(module, request('throw null'), exhausted)).toMatchObject({ code: 'SANDBOX_MEMORY' })
  })

  it('keeps every message within maxErrorChars, the line position included', () => {
    const tight = { ...limits, maxErrorChars: 40 }
    const outcome = runInQuickJS(
      module,
      request(`\n\nthrow new Error('${'x'.repeat(500)}')`, { limits: tight }),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, code: 'SANDBOX_ERROR', line: 3 })
    if (outcome.ok) return
    expect(outcome.message).toHaveLength(40)
    expect(outcome.message).toMatch(/^Error: x+ \(line 3\)$/)
    const timeout = runInQuickJS(module, request('while (true) {}', { limits: tight, timeoutMs: 50 }), host)
    expect(timeout).toMatchObject({ ok: false, code: 'SANDBOX_TIMEOUT' })
    if (!timeout.ok) expect(timeout.message.length).toBeLessThanOrEqual(40)
  })

  it('maps a host exception from inside the VM to a recyclable crash', () => {
    const brokenModule = {
      newRuntime: () => {
        throw new RangeError('Maximum call stack size exceeded')
      },
    } as unknown as QuickJSWASMModule
    expect(runInQuickJS(brokenModule, request('return 1'), host)).toEqual({
      ok: false,
      code: 'SANDBOX_ERROR',
      message: 'Stack overflow: the code recursed too deeply.',
      logs: [],
      recycle: true,
    })
  })
})

describe('createWorkerLoop', () => {
  function loop() {
    const sent: WorkerMessage[] = []
    const handle = createWorkerLoop(
      (wasmMemory) => newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmMemory })),
      (message) => sent.push(message),
      () => performance.now(),
    )
    return { sent, handle }
  }
  const init = {
    type: 'init',
    wasmInitialBytes: SANDBOX_WASM_INITIAL_BYTES,
    wasmMaximumBytes: 80 * 1024 * 1024,
  }

  it('answers a run sent before init with a recyclable INTERNAL error', () => {
    const { sent, handle } = loop()
    handle(request('return 1'))
    expect(sent).toEqual([
      {
        type: 'done',
        id: 'test',
        outcome: {
          ok: false,
          code: 'INTERNAL',
          message: 'The sandbox is not loaded yet.',
          logs: [],
          recycle: true,
        },
      },
    ])
  })

  it('loads once, then runs well-formed requests and ignores malformed ones', async () => {
    const { sent, handle } = loop()
    handle(init)
    handle(init)
    await expect.poll(() => sent.length).toBe(1)
    expect(sent[0]).toEqual({ type: 'ready' })
    handle({ ...request('return 1'), limits: { ...limits, memoryBytes: -1 } })
    handle({ ...request('return 1'), bindingNames: [1] })
    handle({ type: 'run', id: 'x' })
    handle('run')
    expect(sent).toHaveLength(1)
    handle(request('return inputs.n'))
    expect(sent[1]).toEqual({
      type: 'done',
      id: 'test',
      outcome: { ok: true, resultJson: '2', logs: [], recycle: false },
    })
  })

  it('refuses every run after an outcome that asked for recycling', async () => {
    const { sent, handle } = loop()
    handle(init)
    await expect.poll(() => sent.length).toBe(1)
    handle(request('const a = []\nwhile (true) a.push(new Float64Array(1e6))'))
    handle(request('return 1'))
    expect(sent[1]).toMatchObject({ outcome: { code: 'SANDBOX_MEMORY', recycle: true } })
    expect(sent[2]).toMatchObject({
      outcome: { code: 'INTERNAL', message: 'The sandbox must be restarted.' },
    })
  })

  it('reports a failed load', async () => {
    const sent: WorkerMessage[] = []
    const handle = createWorkerLoop(
      () => Promise.reject(new Error('no wasm here')),
      (message) => sent.push(message),
      () => 0,
    )
    handle(init)
    await expect.poll(() => sent).toEqual([{ type: 'failed', message: 'no wasm here' }])
  })
})
