/**
 * Starting workers: a run that arrives while a worker is still loading QuickJS (the app warms the
 * runner as a run begins) waits for that worker instead of loading a second one at the same time.
 */
import { describe, expect, it } from 'vitest'
import { createPooledCodeRunner, type SandboxPortEvents } from '../../src/sandbox/pool.ts'
import type { HostMessage, RunMessage } from '../../src/sandbox/protocol.ts'
import { run } from './helpers.ts'

interface Scripted {
  events: SandboxPortEvents
  posted: HostMessage[]
}

function scriptedRunner() {
  const workers: Scripted[] = []
  const runner = createPooledCodeRunner(
    (events) => {
      const worker: Scripted = { events, posted: [] }
      workers.push(worker)
      return { post: (message) => worker.posted.push(message), terminate: () => undefined }
    },
    { maxWorkers: 2 },
  )
  return { runner, workers }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

async function postedRun(worker: Scripted | undefined): Promise<RunMessage> {
  for (let i = 0; i < 50; i += 1) {
    const message = worker?.posted.find((m): m is RunMessage => m.type === 'run')
    if (message) return message
    await tick()
  }
  throw new Error('no run was posted')
}

const done = (worker: Scripted | undefined, id: string, resultJson: string) =>
  worker?.events.message({ type: 'done', id, outcome: { ok: true, resultJson, logs: [], recycle: false } })

describe('a run while a worker is starting', () => {
  it('waits for the warming worker instead of loading a second one', async () => {
    const { runner, workers } = scriptedRunner()
    const warming = runner.warm()
    const pending = run(runner, 'return 2')
    await tick()
    expect(workers).toHaveLength(1)
    workers[0]?.events.message({ type: 'ready' })
    await warming
    const message = await postedRun(workers[0])
    done(workers[0], message.id, '2')
    expect((await pending).result).toBe(2)
    expect(runner.stats()).toMatchObject({ started: 1, alive: 1 })
  })

  it('lets a second run that arrives meanwhile start its own worker', async () => {
    const { runner, workers } = scriptedRunner()
    const warming = runner.warm()
    const first = run(runner, 'return 1')
    const second = run(runner, 'return 2')
    await tick()
    expect(workers).toHaveLength(2)
    for (const worker of workers) worker.events.message({ type: 'ready' })
    await warming
    const [a, b] = [await postedRun(workers[0]), await postedRun(workers[1])]
    done(workers[0], a.id, a.code === 'return 1' ? '1' : '2')
    done(workers[1], b.id, b.code === 'return 1' ? '1' : '2')
    expect([(await first).result, (await second).result]).toEqual([1, 2])
  })

  it('still runs two programs side by side once the first worker is up', async () => {
    const { runner, workers } = scriptedRunner()
    const first = run(runner, 'return 1')
    await tick()
    workers[0]?.events.message({ type: 'ready' })
    const a = await postedRun(workers[0])
    const second = run(runner, 'return 2')
    await tick()
    expect(workers).toHaveLength(2)
    workers[1]?.events.message({ type: 'ready' })
    const b = await postedRun(workers[1])
    done(workers[1], b.id, '2')
    done(workers[0], a.id, '1')
    expect([(await first).result, (await second).result]).toEqual([1, 2])
  })
})
