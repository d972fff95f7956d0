/**
 * Functional behaviour of the Node code runner with the real QuickJS in a real worker thread:
 * what code sees, what it returns, logs, errors with positions, fresh contexts, abort, pooling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'
import { countTicks, expectFailure, failure, run, SHORT_TIMEOUT_MS } from './helpers.ts'

let runner: SandboxCodeRunner

beforeAll(async () => {
  runner = createNodeCodeRunner()
  await runner.warm()
})

afterAll(() => runner.dispose())

describe('what the code sees and returns', () => {
  it('sees inputs and returns a JSON value computed from them', async () => {
    const { result, logs } = await run(
      runner,
      'return { total: inputs.items.reduce((a, b) => a + b, 0), who: inputs.name }',
      {
        bindings: { inputs: { items: [1, 2, 3], name: 'Ada' } },
      },
    )
    expect(result).toEqual({ total: 6, who: 'Ada' })
    expect(logs).toEqual([])
  })

  it('sees every binding by name, e.g. args and inputs for a tool', async () => {
    const { result } = await run(runner, 'return `${args.city}: ${inputs.unit}`', {
      bindings: { args: { city: 'Oslo' }, inputs: { unit: 'C' } },
    })
    expect(result).toBe('Oslo: C')
  })

  it.each([
    ['a string', "return 'hello, 世界'", 'hello, 世界'],
    ['a number', 'return 6 * 7', 42],
    ['a boolean', 'return 1 < 2', true],
    ['null', 'return null', null],
    ['an array', 'return [1, "two", { three: 3 }]', [1, 'two', { three: 3 }]],
    ['undefined (as null)', 'return undefined', null],
    ['nothing (as null)', 'const x = 1', null],
    ['NaN (as JSON null)', 'return NaN', null],
    ['a Date (as its JSON string)', 'return new Date(0)', '1970-01-01T00:00:00.000Z'],
  ])('returns %s', async (_what, code, expected) => {
    expect((await run(runner, code)).result).toEqual(expected)
  })

  it('awaits its own promises', async () => {
    const { result } = await run(
      runner,
      `const double = async (n) => n * 2
       const values = await Promise.all([double(1), double(2), Promise.resolve(3)])
       const settled = await Promise.allSettled([Promise.reject(new Error('no'))])
       return { values, status: settled[0].status }`,
    )
    expect(result).toEqual({ values: [2, 4, 3], status: 'rejected' })
  })

  it("accepts a leading 'use strict'", async () => {
    expect(
      (await run(runner, "'use strict'\nreturn (function () { return this })() === undefined")).result,
    ).toBe(true)
  })
})

describe('console', () => {
  it('captures console.log, info, warn, error and debug in order', async () => {
    const { logs } = await run(
      runner,
      `console.log('plain', 1, true, null, undefined)
       console.info({ a: [1, 2] })
       console.warn('careful')
       console.error(new TypeError('bad thing'))
       console.debug(() => 1, 5n, Symbol('s'))`,
    )
    expect(logs).toEqual([
      'plain 1 true null undefined',
      '{"a":[1,2]}',
      '[warn] careful',
      '[error] TypeError: bad thing',
      '[debug] [Function anonymous] 5n Symbol(s)',
    ])
  })

  it('prints circular objects with String() instead of failing', async () => {
    const { logs } = await run(runner, 'const a = {}; a.a = a; console.log(a)')
    expect(logs).toEqual(['[object Object]'])
  })

  it('keeps the lines logged before an error in the error details', async () => {
    const error = await expectFailure(
      runner,
      "console.log('step 1')\nconsole.log('step 2')\nnope()",
      'SANDBOX_ERROR',
    )
    expect(error.details?.logs).toBe('step 1\nstep 2')
  })
})

describe('errors', () => {
  it('reports a runtime error with its message and line', async () => {
    const error = await expectFailure(runner, 'const a = 1\n\nreturn a.b.c', 'SANDBOX_ERROR')
    expect(error.message).toMatch(/^TypeError: .+ \(line 3\)$/)
    expect(error.details?.line).toBe(3)
  })

  it('reports the column on line 1 as the person wrote it', async () => {
    const error = await expectFailure(runner, 'return missingName', 'SANDBOX_ERROR')
    expect(error.message).toBe("ReferenceError: 'missingName' is not defined (line 1)")
    expect(error.details?.column).toBe(8)
  })

  it('reports a syntax error with its line, clamped to the code', async () => {
    const inner = await expectFailure(runner, 'const ok = 1\nconst = 2\nreturn ok', 'SANDBOX_ERROR')
    expect(inner.message).toMatch(/^SyntaxError: .+ \(line 2\)$/)
    const unclosed = await expectFailure(runner, 'if (true) {\n  return 1', 'SANDBOX_ERROR')
    expect(unclosed.message).toMatch(/^SyntaxError: .+ \(line 2\)$/)
  })

  it('reports thrown non-errors', async () => {
    expect((await expectFailure(runner, "throw 'plain text'", 'SANDBOX_ERROR')).message).toBe(
      'The code threw: plain text',
    )
    expect((await expectFailure(runner, 'throw null', 'SANDBOX_ERROR')).message).toBe(
      'The code threw null or undefined.',
    )
    expect(
      (await expectFailure(runner, "return Promise.reject(new RangeError('late'))", 'SANDBOX_ERROR')).message,
    ).toBe('RangeError: late (line 1)')
  })

  it('refuses bindings that are not JSON, and binding names that are not identifiers', async () => {
    const notJson = await expectFailure(runner, 'return 1', 'SANDBOX_ERROR', {
      bindings: { inputs: { n: 1n } },
    })
    expect(notJson.message).toContain('cannot be passed to the sandbox as JSON')
    await expectFailure(runner, 'return 1', 'INTERNAL', { bindings: { 'not-a-name': 1 } })
    await expectFailure(runner, 'return 1', 'INTERNAL', { bindings: { this: 1 } })
  })
})

describe('isolation, abort and pooling', () => {
  it('runs every call in a fresh context', async () => {
    await run(runner, 'globalThis.counter = (globalThis.counter ?? 0) + 1; var declared = 1')
    const { result } = await run(runner, 'return [typeof counter, typeof declared]')
    expect(result).toEqual(['undefined', 'undefined'])
  })

  it('rejects at once with CANCELLED when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const started = runner.stats().started
    const error = await failure(run(runner, 'return 1', { signal: controller.signal }))
    expect(error.code).toBe('CANCELLED')
    expect(runner.stats().started).toBe(started)
  })

  it('stops a spinning run with CANCELLED when the signal aborts, without waiting for the deadline', async () => {
    const controller = new AbortController()
    const began = performance.now()
    setTimeout(() => controller.abort(), 200)
    const { value: error, ticks } = await countTicks(() =>
      failure(run(runner, 'while (true) {}', { timeoutMs: 10_000, signal: controller.signal })),
    )
    expect(error.code).toBe('CANCELLED')
    expect(performance.now() - began).toBeLessThan(2_000)
    expect(ticks).toBeGreaterThanOrEqual(3)
    expect((await run(runner, 'return "after"')).result).toBe('after')
  })

  it('keeps other runs going while one spins', async () => {
    const controller = new AbortController()
    let spinningDone = false
    const spinning = failure(
      run(runner, 'while (true) {}', { timeoutMs: 10_000, signal: controller.signal }),
    ).finally(() => (spinningDone = true))
    const quick = await run(runner, 'return inputs.n + 1', { bindings: { inputs: { n: 1 } } })
    expect(quick.result).toBe(2)
    expect(spinningDone).toBe(false)
    controller.abort()
    expect((await spinning).code).toBe('CANCELLED')
  })

  it('queues runs beyond its worker count and starts each deadline when the run starts', async () => {
    const single = createNodeCodeRunner({ maxWorkers: 1 })
    try {
      await single.warm()
      const first = failure(run(single, 'while (true) {}', { timeoutMs: SHORT_TIMEOUT_MS }))
      const second = run(single, 'return "second"', { timeoutMs: SHORT_TIMEOUT_MS * 2 })
      expect((await first).code).toBe('SANDBOX_TIMEOUT')
      expect((await second).result).toBe('second')
      expect(single.stats()).toMatchObject({ started: 2, alive: 1 })
    } finally {
      single.dispose()
    }
  })

  it('warm() loads a worker once, and the first run then starts no other', async () => {
    const fresh = createNodeCodeRunner()
    try {
      await fresh.warm()
      await fresh.warm()
      expect(fresh.stats()).toMatchObject({ started: 1, alive: 1 })
      expect((await run(fresh, 'return 1')).result).toBe(1)
      expect(fresh.stats().started).toBe(1)
    } finally {
      fresh.dispose()
    }
  })

  it('dispose() stops runs in flight with CANCELLED', async () => {
    const doomed = createNodeCodeRunner()
    await doomed.warm()
    const pending = failure(run(doomed, 'while (true) {}', { timeoutMs: 10_000 }))
    doomed.dispose()
    expect((await pending).code).toBe('CANCELLED')
    expect(doomed.stats().alive).toBe(0)
    expect((await failure(run(doomed, 'return 1'))).code).toBe('CANCELLED')
  })
})
