/** Small helpers for the sandbox suites: run code with sensible defaults, catch FlowErrors. */
import { expect } from 'vitest'
import { FlowError, type CodeRunResult, type FlowErrorCode } from '../../src/engine/index.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'

/** Short enough to keep the suite quick, long enough for a loaded 2-core machine. */
export const TEST_TIMEOUT_MS = 2_000
/** The deadline used where a test waits for a timeout on purpose. */
export const SHORT_TIMEOUT_MS = 300

export interface RunOptions {
  bindings?: Record<string, unknown>
  timeoutMs?: number
  signal?: AbortSignal
}

export function run(
  runner: SandboxCodeRunner,
  code: string,
  options: RunOptions = {},
): Promise<CodeRunResult> {
  return runner.run({
    code,
    bindings: options.bindings ?? { inputs: {} },
    timeoutMs: options.timeoutMs ?? TEST_TIMEOUT_MS,
    signal: options.signal ?? new AbortController().signal,
  })
}

/** Resolves with the FlowError the promise rejects with; fails the test if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<FlowError> {
  try {
    const value = await promise
    throw new Error(`expected a FlowError, got ${JSON.stringify(value)}`)
  } catch (error) {
    if (!(error instanceof FlowError)) throw error
    return error
  }
}

/** Runs code that must fail with `code`; returns the error for further checks. */
export async function expectFailure(
  runner: SandboxCodeRunner,
  source: string,
  code: FlowErrorCode,
  options: RunOptions = {},
): Promise<FlowError> {
  const error = await failure(run(runner, source, options))
  expect(error.code, error.message).toBe(code)
  return error
}

/** Counts host timer ticks while `work` runs: proof that the host's event loop stayed free. */
export async function countTicks<T>(
  work: () => Promise<T>,
  everyMs = 20,
): Promise<{ value: T; ticks: number }> {
  let ticks = 0
  const timer = setInterval(() => ticks++, everyMs)
  try {
    const value = await work()
    return { value, ticks }
  } finally {
    clearInterval(timer)
  }
}
