/**
 * Issue 19, item 5: a run's record is kept as the run goes (at node ends, never per streamed
 * token), so a reload mid-run leaves an `interrupted` run with what finished, and "run from
 * here" continues it, reusing what finished (and recording which run it continued).
 */
import { describe, expect, it } from 'vitest'
import { IncrementalRecord } from '../../src/app/runs/incrementalRecord.ts'
import { replayRecord } from '../../src/app/runs/runHistory.ts'
import { RunRecorder } from '../../src/app/runs/runRecorder.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { getRun, listRuns, saveRun } from '../../src/storage/repositories/runs.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { flow } from '../support/flowBuilders.ts'
import { config } from '../storage/support.ts'
import { harness } from './runHarness.ts'

const usage = { prompt: 1, completion: 2, total: 3, estimated: false }
const at = (n: number) => ({ runId: 'run_x', at: 1_000 + n })
const EVENTS: RunEvent[] = [
  { type: 'runStart', flowId: 'f', nodeIds: ['a', 'b'], ...at(0) },
  { type: 'nodeStart', nodeId: 'a', inputs: {}, ...at(1) },
  {
    type: 'nodeFinish',
    nodeId: 'a',
    status: 'success',
    output: { text: 'A' },
    durationMs: 4,
    usage,
    ...at(5),
  },
  { type: 'nodeStart', nodeId: 'b', inputs: {}, ...at(6) },
  { type: 'nodeChunk', nodeId: 'b', text: 'half', channel: 'output', ...at(7) },
]

describe('the record as the run goes', () => {
  it('a snapshot mid-run is an interrupted record with what finished; the end makes it final', () => {
    const recorder = new RunRecorder('f')
    for (const event of EVENTS) recorder.push(event)
    expect(recorder.record()).toBeUndefined()
    const snapshot = recorder.snapshot()
    expect(snapshot).toMatchObject({
      id: 'run_x',
      status: 'interrupted',
      startedAt: 1_000,
      finishedAt: 1_007,
      outputs: { a: { text: 'A' } },
      usage: { total: 3 },
    })
    recorder.push({ type: 'runFinish', status: 'success', usage, durationMs: 9, ...at(9) })
    expect(recorder.snapshot()?.status).toBe('success')
    expect(recorder.record()?.status).toBe('success')
  })

  it('writes at the start and at node ends only, one write at a time, folding what came meanwhile', async () => {
    const recorder = new RunRecorder('f')
    const saved: RunRecord[] = []
    const pending: (() => void)[] = []
    const kept = new IncrementalRecord(recorder, (record) => {
      saved.push(record)
      return new Promise<void>((resolve) => pending.push(resolve))
    })
    const feed = (event: RunEvent) => {
      recorder.push(event)
      kept.seen(event)
    }
    feed(EVENTS[0]!)
    expect(kept.writes).toBe(1)
    for (const event of EVENTS.slice(1)) feed(event)
    // Chunks never write; the node end that came during the first write waits for it.
    for (let i = 0; i < 500; i++)
      feed({ type: 'nodeChunk', nodeId: 'b', text: 'x', channel: 'output', ...at(8) })
    expect(kept.writes).toBe(1)
    pending.shift()?.()
    await Promise.resolve()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(kept.writes).toBe(2)
    expect(saved[1]?.outputs).toEqual({ a: { text: 'A' } })
    const closing = kept.close()
    pending.shift()?.()
    await closing
    feed({ type: 'nodeFinish', nodeId: 'b', status: 'success', output: {}, durationMs: 1, ...at(20) })
    expect(kept.writes).toBe(2)
  })

  it("a node end writes in the next task, unless the run's end came first (its final record is saved anyway)", async () => {
    const later: (() => void)[] = []
    const setup = () => {
      const recorder = new RunRecorder('f')
      const kept = new IncrementalRecord(
        recorder,
        async () => undefined,
        (callback) => later.push(callback),
      )
      const feed = (event: RunEvent) => {
        recorder.push(event)
        kept.seen(event)
      }
      return { kept, feed }
    }
    const settle = async () => {
      for (const callback of later.splice(0)) callback()
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    const alone = setup()
    for (const event of EVENTS.slice(0, 3)) alone.feed(event)
    await settle()
    // The start, then the node end one task later.
    expect(alone.kept.writes).toBe(2)

    const ending = setup()
    for (const event of EVENTS.slice(0, 3)) ending.feed(event)
    ending.feed({ type: 'runFinish', status: 'success', usage, durationMs: 9, ...at(9) })
    await settle()
    expect(ending.kept.writes).toBe(1)
  })

  it('a run that ends without its runFinish (the engine threw) still writes its last node end', async () => {
    const recorder = new RunRecorder('f')
    const saved: RunRecord[] = []
    // The deferred write never fires on its own here: only close() can write it.
    const kept = new IncrementalRecord(
      recorder,
      async (record) => void saved.push(record),
      () => undefined,
    )
    for (const event of EVENTS.slice(0, 3)) {
      recorder.push(event)
      kept.seen(event)
    }
    await kept.close()
    expect(kept.writes).toBe(2)
    expect(saved.at(-1)?.outputs).toEqual({ a: { text: 'A' } })
  })

  it('an interrupted record replays with its unfinished nodes stopped, not running forever', () => {
    const recorder = new RunRecorder('f')
    for (const event of EVENTS) recorder.push(event)
    const view = replayRecord(recorder.snapshot() as RunRecord)
    expect(view.run?.status).toBe('interrupted')
    expect(view.nodes['a']?.status).toBe('success')
    expect(view.nodes['b']?.status).toBe('stopped')
  })
})

describe('a run cut short, in the run service with real IndexedDB', () => {
  const doc = () =>
    flow()
      .meta('flow_keep')
      .node('a', 'template', config('template', { template: 'first' }))
      .node('slow', 'code', config('code', { code: 'return 1' }))
      .node('c', 'template', config('template', { template: 'after {{slow.result}}' }))
      .chain('a', 'slow', 'c')
      .build()

  it('mid-run, History already holds the run as interrupted with the finished node', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const h = await harness({ codeRunner: fakeCodeRunner(async () => (await gate, 7)) })
    h.open(doc())
    h.service.run()
    await expect
      .poll(async () => (await listRuns(h.db, 'flow_keep'))[0]?.outputs['a'], { timeout: 5_000 })
      .toEqual({ text: 'first' })
    const mid = (await listRuns(h.db, 'flow_keep'))[0]
    expect(mid?.status).toBe('interrupted')
    expect(mid?.outputs['slow']).toBeUndefined()
    release()
    await h.service.whenIdle()
    const end = await listRuns(h.db, 'flow_keep')
    expect(end).toHaveLength(1)
    expect(end[0]?.status).toBe('success')
  })

  it('run from here continues an interrupted run: what finished is reused, the record names its parent', async () => {
    const h = await harness()
    h.open(doc())
    const recorder = new RunRecorder('flow_keep')
    const events: RunEvent[] = [
      { type: 'runStart', flowId: 'flow_keep', nodeIds: ['a', 'slow', 'c'], runId: 'run_cut', at: 1 },
      { type: 'nodeStart', nodeId: 'a', inputs: {}, runId: 'run_cut', at: 2 },
      {
        type: 'nodeFinish',
        nodeId: 'a',
        status: 'success',
        output: { text: 'KEPT' },
        durationMs: 1,
        runId: 'run_cut',
        at: 3,
      },
    ]
    for (const event of events) recorder.push(event)
    await saveRun(h.db, recorder.snapshot() as RunRecord, { keep: 20 })
    h.service.runFrom?.('slow', 'fromHere')
    await h.service.whenIdle()
    const latest = (await listRuns(h.db, 'flow_keep'))[0] as RunRecord
    expect(latest.status).toBe('success')
    expect(latest.parentRunId).toBe('run_cut')
    expect(latest.reused).toEqual({ a: { reason: 'reused', fromRunId: 'run_cut' } })
    // The code node reads its inputs: the reused output of `a` from the interrupted run.
    expect(String(latest.outputs['c']?.['text'])).toContain('KEPT')
    expect(h.runs.getState().nodes['a']?.cached?.reason).toBe('reused')
    expect((await getRun(h.db, 'run_cut'))?.status).toBe('interrupted')
  })
})
