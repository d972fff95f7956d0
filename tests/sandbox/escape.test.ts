/**
 * Escape suite: hostile code against the REAL Node runner (worker thread + QuickJS wasm). Every
 * attempt must be contained: a clear FlowError, or a result showing it reached nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SANDBOX_MAX_ERROR_CHARS,
  SANDBOX_MAX_LOG_LINES,
  SANDBOX_MAX_RESULT_CHARS,
} from '../../src/defaults.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'
import { countTicks, expectFailure, run, SHORT_TIMEOUT_MS } from './helpers.ts'

let runner: SandboxCodeRunner

beforeAll(async () => {
  runner = createNodeCodeRunner()
  await runner.warm()
})

afterAll(() => runner.dispose())

/** The whole global object of a fresh context: ECMAScript built-ins plus the captured console. */
const ALLOWED_GLOBALS = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float16Array', 'Float32Array', 'Float64Array', 'Function',
  'Infinity', 'Int16Array', 'Int32Array', 'Int8Array', 'InternalError', 'Iterator', 'JSON', 'Map', 'Math', 'NaN',
  'Number', 'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set',
  'SharedArrayBuffer', 'String', 'Symbol', 'Symbol(Symbol.toStringTag)', 'SyntaxError', 'TypeError', 'URIError',
  'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet', 'console',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'isFinite',
  'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape',
] // prettier-ignore

const HOST_NAMES = [
  'fetch', 'XMLHttpRequest', 'importScripts', 'WebSocket', 'indexedDB', 'caches', 'localStorage', 'sessionStorage',
  'postMessage', 'self', 'window', 'document', 'navigator', 'location', 'require', 'process', 'module', 'exports',
  'Buffer', 'global', 'setTimeout', 'setInterval', 'queueMicrotask', 'WebAssembly', 'Atomics', 'crypto',
  'performance', 'std', 'os', 'Deno', 'Bun', '__dirname', 'structuredClone', 'onmessage',
] // prettier-ignore

describe('no host API is reachable', () => {
  it.each([
    ['fetch', "await fetch('https://example.com')", "'fetch' is not defined"],
    [
      'XMLHttpRequest',
      "new XMLHttpRequest().open('GET', 'https://example.com')",
      "'XMLHttpRequest' is not defined",
    ],
    ['importScripts', "importScripts('https://example.com/x.js')", "'importScripts' is not defined"],
    ['WebSocket', "new WebSocket('wss://example.com')", "'WebSocket' is not defined"],
    ['indexedDB', "indexedDB.open('wardflow')", "'indexedDB' is not defined"],
    ['caches', "await caches.open('x')", "'caches' is not defined"],
    ['localStorage', "localStorage.getItem('wardflow.keys')", "'localStorage' is not defined"],
    ['postMessage', "postMessage({ type: 'done', id: 'x', outcome: {} })", "'postMessage' is not defined"],
    ['self.postMessage', "self.postMessage({ type: 'ready' })", "'self' is not defined"],
    ['require', "return require('fs').readFileSync('/etc/passwd', 'utf8')", "'require' is not defined"],
    ['process', 'return process.env', "'process' is not defined"],
    [
      'Atomics.wait',
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000)',
      "'Atomics' is not defined",
    ],
  ])('%s is not defined', async (_name, code, message) => {
    const error = await expectFailure(runner, code, 'SANDBOX_ERROR')
    expect(error.message).toContain(`ReferenceError: ${message}`)
    expect(error.details?.line).toBe(1)
  })

  it('the global object holds only ECMAScript built-ins and console', async () => {
    const { result } = await run(runner, 'return Reflect.ownKeys(globalThis).map(String).sort()')
    expect(result).toEqual([...ALLOWED_GLOBALS].sort())
    const { result: present } = await run(runner, 'return names.filter((n) => n in globalThis)', {
      bindings: { names: HOST_NAMES },
    })
    expect(present).toEqual([])
  })

  it("Function('return this')() is the sandbox's own global, not the host's", async () => {
    const { result } = await run(
      runner,
      `const g = Function('return this')()
       return { same: g === globalThis, process: typeof g.process, require: typeof g.require, fetch: typeof g.fetch }`,
    )
    expect(result).toEqual({ same: true, process: 'undefined', require: 'undefined', fetch: 'undefined' })
  })

  it('eval, direct and indirect, only reaches the sandbox', async () => {
    const { result } = await run(
      runner,
      `return [eval('typeof require'), (0, eval)('typeof process'), (0, eval)('this') === globalThis, eval('1 + 1')]`,
    )
    expect(result).toEqual(['undefined', 'undefined', true, 2])
  })

  it("constructor.constructor('return process')() finds no process", async () => {
    const error = await expectFailure(
      runner,
      "return (() => {}).constructor.constructor('return process')()",
      'SANDBOX_ERROR',
    )
    expect(error.message).toContain("'process' is not defined")
  })

  it('an async function constructor and the console functions lead nowhere either', async () => {
    const { result } = await run(
      runner,
      `const AsyncFunction = (async () => {}).constructor
       const viaAsync = await new AsyncFunction('return typeof require + typeof fetch')()
       const viaConsole = console.log.constructor('return typeof process')()
       return [viaAsync, viaConsole]`,
    )
    expect(result).toEqual(['undefinedundefined', 'undefined'])
  })

  it('dynamic import() has no module loader and static import does not compile', async () => {
    const dynamic = await expectFailure(runner, "return await import('node:fs')", 'SANDBOX_ERROR')
    expect(dynamic.message).toContain("could not load module 'node:fs'")
    const staticImport = await expectFailure(runner, "import fs from 'fs'\nreturn fs", 'SANDBOX_ERROR')
    expect(staticImport.message).toContain('SyntaxError')
  })

  it('Date and Math.random work; they are the only sources of variety', async () => {
    const { result } = await run(
      runner,
      'return [typeof Date.now(), Math.random() < 1, new Date(0).toISOString()]',
    )
    expect(result).toEqual(['number', true, '1970-01-01T00:00:00.000Z'])
  })
})

describe('no state leaks between runs or into the host', () => {
  it('prototype pollution stays inside the run that did it', async () => {
    const polluted = await run(
      runner,
      `Object.prototype.polluted = 'yes'
       Array.prototype.map = () => 'hijacked'
       JSON.parse = () => ({ hijacked: true })
       globalThis.leftover = 42
       return { seen: ({}).polluted }`,
    )
    // Own key 'seen' only: the pollution is not part of the JSON crossing to the host.
    expect(polluted.result).toEqual({ seen: 'yes' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const next = await run(
      runner,
      `return [({}).polluted, [1].map((x) => x + 1), typeof leftover, JSON.parse('{"a":1}')]`,
    )
    expect(next.result).toEqual([null, [2], 'undefined', { a: 1 }])
  })

  it('__proto__ keys in returned JSON do not pollute the host', async () => {
    const { result } = await run(
      runner,
      `return JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"polluted": true}}, "ok": 1}')`,
    )
    expect(result).toEqual({ nested: {}, ok: 1 })
    const merged = Object.assign({}, result) as Record<string, unknown>
    expect(merged.polluted).toBeUndefined()
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('inputs are frozen copies: changing them inside leaves the host object alone', async () => {
    const inputs = { list: [1, 2], nested: { value: 'host' } }
    const { result } = await run(
      runner,
      `'use strict'
       try { inputs.nested.value = 'changed' } catch (e) { return [Object.isFrozen(inputs.list), e.name] }
       return 'mutated'`,
      { bindings: { inputs } },
    )
    expect(result).toEqual([true, 'TypeError'])
    expect(inputs).toEqual({ list: [1, 2], nested: { value: 'host' } })
  })

  it('tampering with JSON.stringify or toJSON only garbles its own result', async () => {
    const hijacked = await run(runner, `JSON.stringify = () => '{"fake":true}'\nreturn { real: true }`)
    expect(hijacked.result).toEqual({ real: true })
    const error = await expectFailure(
      runner,
      `Object.prototype.toJSON = function () { throw new Error('no JSON for you') }\nreturn { a: 1 }`,
      'SANDBOX_BAD_RESULT',
    )
    expect(error.message).toContain('no JSON for you')
  })
})

describe('results that are not JSON data', () => {
  it.each([
    ['a symbol', "return Symbol('x')", 'The code returned a symbol'],
    ['a function', 'return () => 1', 'The code returned a function'],
    ['a bigint', 'return 10n', 'The code returned a bigint'],
    ['a nested function', 'return { ok: 1, run() {} }', 'The result holds a function at key "run"'],
    ['a circular object', 'const a = {}; a.self = a; return a', 'cannot be turned into JSON'],
  ])('%s is SANDBOX_BAD_RESULT with a clear message', async (_what, code, message) => {
    const error = await expectFailure(runner, code, 'SANDBOX_BAD_RESULT')
    expect(error.message).toContain(message)
  })

  it('a huge string result is refused, not copied into the host', async () => {
    const error = await expectFailure(
      runner,
      `return 'x'.repeat(${SANDBOX_MAX_RESULT_CHARS + 10})`,
      'SANDBOX_BAD_RESULT',
    )
    expect(error.message).toContain(`the limit is ${SANDBOX_MAX_RESULT_CHARS}`)
  })
})

describe('resource exhaustion', () => {
  it('while(true){} stops at the deadline while the host event loop stays free', async () => {
    const startedBefore = runner.stats().started
    const began = performance.now()
    const { value: error, ticks } = await countTicks(() =>
      expectFailure(runner, 'while (true) {}', 'SANDBOX_TIMEOUT', { timeoutMs: SHORT_TIMEOUT_MS }),
    )
    const elapsed = performance.now() - began
    expect(error.message).toBe(`The code ran for more than ${SHORT_TIMEOUT_MS} ms and was stopped.`)
    expect(error.details?.timeoutMs).toBe(SHORT_TIMEOUT_MS)
    expect(elapsed).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 5)
    expect(elapsed).toBeLessThan(SHORT_TIMEOUT_MS + 1_500)
    // 20 ms ticks over 300 ms: a blocked loop would have given none. A loaded 2-core machine
    // delays timers (4 of 15 came in one run at load 25), so only a blocked loop's 0 fails.
    expect(ticks).toBeGreaterThanOrEqual(2)
    // The spinning worker was terminated; the next run gets a fresh one and works.
    expect((await run(runner, 'return 7')).result).toBe(7)
    expect(runner.stats().started).toBeGreaterThan(startedBefore)
  })

  it('catching inside the loop cannot swallow the stop', async () => {
    await expectFailure(runner, 'for (;;) { try { while (true) {} } catch (e) {} }', 'SANDBOX_TIMEOUT', {
      timeoutMs: SHORT_TIMEOUT_MS,
    })
  })

  it('an endless chain of microtasks is stopped too', async () => {
    await expectFailure(runner, 'for (;;) await null', 'SANDBOX_TIMEOUT', { timeoutMs: SHORT_TIMEOUT_MS })
  })

  it('a promise that never settles fails at once with a clear message', async () => {
    const began = performance.now()
    const error = await expectFailure(runner, 'await new Promise(() => {})', 'SANDBOX_ERROR', {
      timeoutMs: 5_000,
    })
    expect(error.message).toContain('never settle')
    expect(performance.now() - began).toBeLessThan(2_000)
  })

  it('a memory bomb hits SANDBOX_MEMORY and the sandbox recovers', async () => {
    const error = await expectFailure(
      runner,
      'const hoard = []\nwhile (true) hoard.push(new Float64Array(1e6))',
      'SANDBOX_MEMORY',
      { timeoutMs: 10_000 },
    )
    expect(error.message).toBe('The code ran out of memory (limit 64 MB).')
    expect((await run(runner, 'return [1, 2, 3].length')).result).toBe(3)
  })

  it('a string-doubling bomb is contained with a clear error', async () => {
    const error = await expectFailure(runner, "let s = 'x'\nwhile (true) s += s", 'SANDBOX_ERROR', {
      timeoutMs: 10_000,
    })
    expect(error.message).toMatch(/string too long|out of memory/)
  })

  it('deep recursion is a stack overflow error, not a crash', async () => {
    const error = await expectFailure(
      runner,
      'function down(n) { return down(n + 1) + 1 }\nreturn down(0)',
      'SANDBOX_ERROR',
    )
    expect(error.message).toBe('Stack overflow: the code recursed too deeply (line 1)')
    expect((await run(runner, 'return 1 + 1')).result).toBe(2)
  })

  it.each([
    ['JSON.parse nesting', "return JSON.parse('['.repeat(200000))"],
    ['a recursive Proxy', 'const p = new Proxy({}, { get: (t, k, r) => r[k] })\nreturn p.x'],
  ])('deep native recursion through %s overflows cleanly', async (_what, code) => {
    const error = await expectFailure(runner, code, 'SANDBOX_ERROR', { timeoutMs: 10_000 })
    expect(error.message).toMatch(/stack overflow/i)
    expect((await run(runner, 'return 3')).result).toBe(3)
  })

  it('a pathologically slow native call (deeply nested JSON.stringify) is stopped from outside', async () => {
    // QuickJS's cycle check makes this quadratic: minutes inside one native call, no interrupt.
    const code = 'let a = []\nfor (let i = 0; i < 100000; i++) a = [a]\nreturn JSON.stringify(a).length'
    await expectFailure(runner, code, 'SANDBOX_TIMEOUT', { timeoutMs: 1_000 })
    expect((await run(runner, 'return 4')).result).toBe(4)
  })

  it('a console flood is capped', async () => {
    const { logs } = await run(runner, `for (let i = 0; i < 20000; i++) console.log('line', i)`, {
      timeoutMs: 10_000,
    })
    expect(logs).toHaveLength(SANDBOX_MAX_LOG_LINES + 1)
    expect(logs[0]).toBe('line 0')
    expect(logs.at(-1)).toBe(`\u2026 ${20000 - SANDBOX_MAX_LOG_LINES} more log lines were dropped`)
  })

  it('a huge or hostile error is cut and still reported', async () => {
    const huge = await expectFailure(runner, "throw new Error('e'.repeat(1e6))", 'SANDBOX_ERROR')
    expect(huge.message.length).toBeLessThan(SANDBOX_MAX_ERROR_CHARS + 100)
    const hostile = await expectFailure(
      runner,
      "throw { get name() { throw new Error('gotcha') }, get message() { while (true) {} } }",
      'SANDBOX_TIMEOUT',
      { timeoutMs: SHORT_TIMEOUT_MS },
    )
    expect(hostile.message).toContain('was stopped')
  })
})
