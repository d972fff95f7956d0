import { describe, expect, it, vi } from 'vitest'
import { createWasmCompiler, isWasmModuleMessage } from '../../src/sandbox/wasmPreload.ts'

// The smallest valid module that does something: (func (export "answer") (result i32) i32.const 42)
const ANSWER_WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01,
  0x00, 0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00, 0x0a, 0x06, 0x01, 0x04, 0x00,
  0x41, 0x2a, 0x0b,
])

const wasmResponse = (contentType: string, status = 200) =>
  new Response(ANSWER_WASM, { status, headers: { 'content-type': contentType } })

async function answerOf(module: WebAssembly.Module | undefined): Promise<number> {
  if (!module) throw new Error('no module')
  const instance = await WebAssembly.instantiate(module)
  return (instance.exports.answer as () => number)()
}

describe('createWasmCompiler', () => {
  it('compiles the wasm once for every caller', async () => {
    const fetchFn = vi.fn(async () => wasmResponse('application/wasm'))
    const compiled = createWasmCompiler('/q.wasm', fetchFn)
    const [a, b] = await Promise.all([compiled(), compiled()])
    expect(a).toBe(b)
    expect(await answerOf(a)).toBe(42)
    expect(await compiled()).toBe(a)
    expect(fetchFn).toHaveBeenCalledTimes(1)
    expect(fetchFn).toHaveBeenCalledWith('/q.wasm')
  })

  it('compiles from a buffer when the host serves wasm with the wrong MIME type', async () => {
    const fetchFn = vi.fn(async () => wasmResponse('application/octet-stream'))
    const module = await createWasmCompiler('/q.wasm', fetchFn)()
    expect(await answerOf(module)).toBe(42)
    expect(fetchFn).toHaveBeenCalledTimes(2)
  })

  it('resolves undefined (the worker then loads the wasm itself) when the wasm cannot be had', async () => {
    const offline = createWasmCompiler('/q.wasm', async () => {
      throw new TypeError('Failed to fetch')
    })
    expect(await offline()).toBeUndefined()
    const missing = createWasmCompiler('/q.wasm', async () => new Response('not found', { status: 404 }))
    expect(await missing()).toBeUndefined()
    const garbage = createWasmCompiler(
      '/q.wasm',
      async () => new Response('<html>', { headers: { 'content-type': 'text/html' } }),
    )
    expect(await garbage()).toBeUndefined()
  })
})

describe('createWasmCompiler after a failure', () => {
  it('tries again for the next worker after a failure, and keeps a success', async () => {
    let online = false
    const fetchFn = vi.fn(async () => {
      if (!online) throw new TypeError('Failed to fetch')
      return wasmResponse('application/wasm')
    })
    const compiled = createWasmCompiler('/q.wasm', fetchFn)
    expect(await compiled()).toBeUndefined()
    online = true
    const module = await compiled()
    expect(await answerOf(module)).toBe(42)
    online = false
    expect(await compiled()).toBe(module)
  })
})

describe('isWasmModuleMessage', () => {
  it('accepts a compiled module or null, nothing else', async () => {
    const module = await WebAssembly.compile(ANSWER_WASM)
    expect(isWasmModuleMessage({ type: 'wasm', module })).toBe(true)
    expect(isWasmModuleMessage({ type: 'wasm', module: null })).toBe(true)
    expect(isWasmModuleMessage({ type: 'wasm', module: ANSWER_WASM })).toBe(false)
    expect(isWasmModuleMessage({ type: 'wasm' })).toBe(false)
    expect(isWasmModuleMessage({ type: 'init', module })).toBe(false)
    expect(isWasmModuleMessage(null)).toBe(false)
  })
})
