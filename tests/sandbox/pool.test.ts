/**
 * The host side of the protocol against scripted workers: forged, malformed and stale messages
 * must never settle a run; crashes, load failures and hung starts must end in clear errors.
 * (The real workers are covered by node-runner.test.ts and escape.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import {
  createPooledCodeRunner,
  defaultSandboxLimits,
  newRequestId,
  type SandboxPortEvents,
} from '../../src/sandbox/pool.ts'
import type { HostMessage, RunMessage } from '../../src/sandbox/protocol.ts'
import { failure, run } from './helpers.ts'

/** A worker the test drives by hand. */
class ScriptedWorker {
  readonly posted: HostMessage[] = []
  terminated = false
  constructor(readonly events: SandboxPortEvents) {}

  get lastRun(): RunMessage {
    const runs = this.posted.filter((m): m is RunMessage => m.type === 'run')
    const last = runs.at(-1)
    if (!last) throw new Error('no run was posted')
    return last
  }

  ready(): void {
    this.events.message({ type: 'ready' })
  }

  done(id: string, resultJson: string): void {
    this.events.message({ type: 'done', id, outcome: { ok: true, resultJson, logs: [], recycle: false } })
  }
}

function scriptedRunner(options: Parameters<typeof createPooledCodeRunner>[1] = {}) {
  const workers: ScriptedWorker[] = []
  const runner = createPooledCodeRunner((events) => {
    const worker = new ScriptedWorker(events)
    workers.push(worker)
    return {
      post: (message) => worker.posted.push(message),
      terminate: () => (worker.terminated = true),
    }
  }, options)
  return { runner, workers }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Waits until the runner has posted a run to `worker`. */
async function posted(worker: ScriptedWorker | undefined): Promise<RunMessage> {
  for (let i = 0; i < 50; i++) {
    if (worker?.posted.some((m) => m.type === 'run')) return worker.lastRun
    await tick()
  }
  throw new Error('the run was never posted')
}

describe('messages from workers', () => {
  it('sends init with a wasm memory capped at the limit plus overhead, then the run as JSON', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return inputs', { bindings: { inputs: { a: 1 } } })
    await tick()
    const init = workers[0]?.posted[0]
    expect(init).toMatchObject({ type: 'init' })
    if (init?.type === 'init')
      expect(init.wasmMaximumBytes).toBeGreaterThan(defaultSandboxLimits().memoryBytes)
    workers[0]?.ready()
    const message = await posted(workers[0])
    expect(message).toMatchObject({
      code: 'return inputs',
      bindingNames: ['inputs'],
      bindingsJson: '{"inputs":{"a":1}}',
    })
    workers[0]?.done(message.id, '{"a":1}')
    expect((await pending).result).toEqual({ a: 1 })
  })

  it('ignores forged and malformed messages; only the right id settles the run', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return 1')
    await tick()
    const worker = workers[0]
    worker?.ready()
    const { id } = await posted(worker)
    let settled = false
    void pending.then(() => (settled = true))

    worker?.done('someone-else', '"forged"')
    worker?.done(newRequestId(), '"guessed"')
    worker?.events.message({ type: 'done', id: 'someone-else', outcome: { ok: 'yes' } })
    worker?.events.message({ type: 'done', outcome: { ok: true, resultJson: '1', logs: [], recycle: false } })
    worker?.events.message('done')
    worker?.events.message(null)
    worker?.events.message({ type: 'ready' })
    await tick()
    expect(settled).toBe(false)
    expect(runner.stats().ignoredMessages).toBe(7)

    worker?.done(id, '"real"')
    expect((await pending).result).toBe('real')
    // A replay of the same answer after the run ended is ignored as well.
    worker?.done(id, '"replayed"')
    expect(runner.stats().ignoredMessages).toBe(8)
  })

  it.each([
    ['a result of the wrong type', { ok: true, resultJson: 5, logs: [], recycle: false }],
    ['an unknown error code', { ok: false, code: 'NOT_A_CODE', message: 'x', logs: [], recycle: false }],
    ['an oversized result', { ok: true, resultJson: 'x'.repeat(2_000_000), logs: [], recycle: false }],
  ])(
    "an unreadable answer with the run's id (%s) fails the run at once and replaces the worker",
    async (_what, outcome) => {
      const { runner, workers } = scriptedRunner()
      const pending = run(runner, 'return 1', { timeoutMs: 10_000 })
      await tick()
      workers[0]?.ready()
      const { id } = await posted(workers[0])
      workers[0]?.events.message({ type: 'done', id, outcome })
      const error = await failure(pending)
      expect(error.code).toBe('INTERNAL')
      expect(error.message).toBe('The sandbox sent an answer that could not be read.')
      expect(workers[0]?.terminated).toBe(true)
    },
  )

  it("one worker cannot settle another worker's run", async () => {
    const { runner, workers } = scriptedRunner({ maxWorkers: 2 })
    const first = run(runner, 'return "a"')
    const second = run(runner, 'return "b"')
    await tick()
    workers.forEach((w) => w.ready())
    const [a, b] = [await posted(workers[0]), await posted(workers[1])]
    workers[1]?.done(a.id, '"stolen"')
    workers[0]?.done(a.id, '"a"')
    workers[1]?.done(b.id, '"b"')
    expect([(await first).result, (await second).result]).toEqual(['a', 'b'])
    expect(runner.stats().ignoredMessages).toBe(1)
  })

  it('uses unguessable request ids', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newRequestId()))
    expect(ids.size).toBe(100)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{32,36}$/)
  })
})

describe('failing workers', () => {
  it('a worker that dies mid-run fails that run clearly and is replaced on the next', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return 1')
    await tick()
    workers[0]?.ready()
    await posted(workers[0])
    workers[0]?.events.failure('the worker exited with code 1')
    const error = await failure(pending)
    expect(error.code).toBe('SANDBOX_ERROR')
    expect(error.message).toBe('The sandbox stopped unexpectedly: the worker exited with code 1')

    const next = run(runner, 'return 2')
    await tick()
    expect(workers).toHaveLength(2)
    workers[1]?.ready()
    workers[1]?.done((await posted(workers[1])).id, '2')
    expect((await next).result).toBe(2)
  })

  it('a worker that cannot load QuickJS fails the run with INTERNAL', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return 1')
    await tick()
    workers[0]?.events.message({ type: 'failed', message: 'wasm fetch 404' })
    const error = await failure(pending)
    expect(error.code).toBe('INTERNAL')
    expect(error.message).toBe('The sandbox could not load QuickJS: wasm fetch 404')
    expect(workers[0]?.terminated).toBe(true)
  })

  it('a worker that never starts is given up after the start timeout', async () => {
    const { runner, workers } = scriptedRunner({ startTimeoutMs: 50 })
    const error = await failure(run(runner, 'return 1'))
    expect(error.code).toBe('INTERNAL')
    expect(error.message).toBe('The sandbox did not start within 50 ms.')
    expect(workers[0]?.terminated).toBe(true)
  })

  it('a worker that never answers is terminated at the deadline', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return 1', { timeoutMs: 100 })
    await tick()
    workers[0]?.ready()
    const error = await failure(pending)
    expect(error.code).toBe('SANDBOX_TIMEOUT')
    expect(workers[0]?.terminated).toBe(true)
    expect(runner.stats().alive).toBe(0)
  })

  it('an outcome asking for recycling replaces the worker after answering', async () => {
    const { runner, workers } = scriptedRunner()
    const pending = run(runner, 'return 1')
    await tick()
    workers[0]?.ready()
    const { id } = await posted(workers[0])
    workers[0]?.events.message({
      type: 'done',
      id,
      outcome: {
        ok: false,
        code: 'SANDBOX_MEMORY',
        message: 'The code ran out of memory (limit 64 MB).',
        logs: [],
        recycle: true,
      },
    })
    expect((await failure(pending)).code).toBe('SANDBOX_MEMORY')
    expect(workers[0]?.terminated).toBe(true)
  })
})
