/**
 * The bench's page-level view of the browser sandbox: the app's real worker runner
 * (src/sandbox/worker-runner.ts: QuickJS/wasm in a module Web Worker, pooled, deadline enforced
 * from outside) with nothing else on the page, so its own cold start and warm calls are measured
 * apart from what a run in the app adds (saving, checking, drawing the run).
 */
import { createWorkerCodeRunner } from '../../src/sandbox/worker-runner.ts'

interface SandboxBench {
  /** A new runner's first run, from creating it to the result (worker, wasm, QuickJS, the run). */
  cold(): Promise<number>
  /** `count` more runs of the same code on that runner; each one's duration. */
  warm(count: number): Promise<number[]>
}

const runner = createWorkerCodeRunner()
const request = () => ({
  code: 'return inputs.a + 1\n',
  bindings: { inputs: { a: 1 } },
  timeoutMs: 5_000,
  signal: new AbortController().signal,
})

const bench: SandboxBench = {
  async cold() {
    const started = performance.now()
    const { result } = await runner.run(request())
    if (result !== 2) throw new Error(`unexpected result ${JSON.stringify(result)}`)
    return performance.now() - started
  },
  async warm(count) {
    const times: number[] = []
    for (let i = 0; i < count; i += 1) {
      const started = performance.now()
      await runner.run(request())
      times.push(performance.now() - started)
    }
    return times
  },
}

;(window as unknown as { __sandbox: SandboxBench }).__sandbox = bench
