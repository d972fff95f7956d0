/**
 * A Code node may return a valid but very deep value (3,000 nested arrays): it used to fail with
 * "not valid JSON", which sends a person looking for a syntax error. It is refused with a
 * message naming its depth and the limit; a value at the limit still comes back whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_MAX_RESULT_DEPTH } from '../../src/defaults.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import { jsonTextDepth } from '../../src/sandbox/outcome.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'
import { failure, run } from './helpers.ts'

let runner: SandboxCodeRunner
beforeAll(async () => {
  runner = createNodeCodeRunner()
  await runner.warm()
})
afterAll(() => runner.dispose())

const nested = (levels: number, open: string, close: string): string =>
  `let x = 1; for (let i = 0; i < ${levels}; i++) x = ${open}x${close}; return x`

describe('deeply nested results', () => {
  it('3,000 nested arrays or 5,000 nested objects are refused with their depth and the limit', async () => {
    for (const [code, depth] of [
      [nested(3_000, '[', ']'), 3_000],
      [nested(5_000, '{ a: ', ' }'), 5_000],
    ] as const) {
      const error = await failure(run(runner, code))
      expect(error.code).toBe('SANDBOX_RESULT_TOO_DEEP')
      expect(error.message).toBe(
        `The code returned a value nested ${depth} levels deep; at most ${SANDBOX_MAX_RESULT_DEPTH} levels can be kept. Return a flatter value (the parts you need, or JSON text).`,
      )
      expect(error.details).toEqual({ depth, max: SANDBOX_MAX_RESULT_DEPTH })
    }
  })

  it('a value at the limit comes back whole', async () => {
    const { result } = await run(runner, nested(SANDBOX_MAX_RESULT_DEPTH, '[', ']'))
    let levels = 0
    for (let v: unknown = result; Array.isArray(v); v = v[0]) levels += 1
    expect(levels).toBe(SANDBOX_MAX_RESULT_DEPTH)
  })

  it('depth counts brackets outside strings only', () => {
    expect(jsonTextDepth('"[[[[" ')).toBe(0)
    expect(jsonTextDepth('{"a":"\\"[[","b":[[1]]}')).toBe(3)
    expect(jsonTextDepth('[{}, [], [[]]]')).toBe(3)
  })
})
