import { describe, expect, it, vi } from 'vitest'
import { RUN_HISTORY_PER_FLOW } from '../../src/defaults.ts'
import {
  clearRuns,
  compactEvents,
  getRun,
  listRuns,
  saveRun,
  scrubSecrets,
} from '../../src/storage/repositories/runs.ts'
import { saveSettings } from '../../src/storage/repositories/settings.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { freshDb, quotaError, sampleRun } from './support.ts'

describe('run history', () => {
  it('keeps the newest N runs of a flow and never touches other flows', async () => {
    const db = await freshDb()
    for (let i = 1; i <= 6; i += 1) await saveRun(db, sampleRun('f1', i * 100), { keep: 3 })
    await saveRun(db, sampleRun('f2', 50), { keep: 3 })
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([600, 500, 400])
    expect((await listRuns(db, 'f2')).map((r) => r.startedAt)).toEqual([50])
  })

  it('reads the limit from settings.runHistoryPerFlow, defaulting to RUN_HISTORY_PER_FLOW', async () => {
    const db = await freshDb()
    for (let i = 0; i < RUN_HISTORY_PER_FLOW + 2; i += 1) await saveRun(db, sampleRun('f1', i))
    expect(await listRuns(db, 'f1')).toHaveLength(RUN_HISTORY_PER_FLOW)
    await saveSettings(db, { ...defaultSettings(), runHistoryPerFlow: 2 })
    const result = await saveRun(db, sampleRun('f1', 1000))
    expect(result.removed).toBe(RUN_HISTORY_PER_FLOW - 1)
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([1000, RUN_HISTORY_PER_FLOW + 1])
  })

  it('merges consecutive chunks of one node and keeps the text', () => {
    const events = [
      { type: 'nodeChunk', runId: 'r', at: 1, nodeId: 'a', channel: 'output', text: 'Hel' },
      { type: 'nodeChunk', runId: 'r', at: 2, nodeId: 'a', channel: 'output', text: 'lo' },
      { type: 'nodeChunk', runId: 'r', at: 3, nodeId: 'a', channel: 'reasoning', text: 'hmm' },
      { type: 'nodeChunk', runId: 'r', at: 4, nodeId: 'b', channel: 'output', text: 'x' },
      { type: 'nodeFinish', runId: 'r', at: 5, nodeId: 'a' },
      { type: 'nodeChunk', runId: 'r', at: 6, nodeId: 'a', channel: 'output', text: '!' },
    ]
    expect(compactEvents(events)).toEqual([
      { type: 'nodeChunk', runId: 'r', at: 1, nodeId: 'a', channel: 'output', text: 'Hello' },
      events[2],
      events[3],
      events[4],
      events[5],
    ])
  })

  it('never merges the chunks of a sub-flow’s node or another iteration into the same id’s chunk', () => {
    const chunk = (text: string, place: Record<string, unknown>) => ({
      type: 'nodeChunk',
      runId: 'r',
      at: 1,
      nodeId: 'q',
      channel: 'output',
      text,
      ...place,
    })
    const inCall = { path: ['call'], nesting: [{ nodeId: 'call', kind: 'subflow' }] }
    const at = (i: number) => ({ nesting: [{ nodeId: 'each', kind: 'loop', iteration: i }] })
    const events = [
      chunk('top', {}),
      chunk('inner', inCall),
      chunk('i0', at(0)),
      chunk('i1', at(1)),
      chunk('+', at(1)),
    ]
    expect(compactEvents(events).map((e) => (e as { text: string }).text)).toEqual([
      'top',
      'inner',
      'i0',
      'i1+',
    ])
  })

  it('scrubs known key values from everything it stores', async () => {
    const db = await freshDb()
    const run = sampleRun('f1', 1)
    run.events.push({
      type: 'nodeError',
      runId: run.id,
      at: 2,
      nodeId: 'llm',
      code: 'PROVIDER_AUTH',
      message: 'key sk-live-secret-123 rejected',
    })
    run.outputs.llm = { response: 'echo: sk-live-secret-123' }
    await saveRun(db, run, { keep: 5, scrub: ['sk-live-secret-123'] })
    const stored = await getRun(db, run.id)
    expect(JSON.stringify(stored)).not.toContain('sk-live-secret-123')
    expect(stored?.outputs.llm).toEqual({ response: 'echo: [redacted]' })
    expect(scrubSecrets({ a: ['x-secret-x'] }, ['secret', ''])).toEqual({ a: ['x-[redacted]-x'] })
  })

  it('a failed save keeps the runs already stored (pruning happens only after the write)', async () => {
    const db = await freshDb()
    for (let i = 1; i <= 3; i += 1) await saveRun(db, sampleRun('f1', i), { keep: 3 })
    const spy = vi.spyOn(db.runs, 'put').mockRejectedValue(quotaError())
    await expect(saveRun(db, sampleRun('f1', 4), { keep: 3 })).rejects.toMatchObject({
      code: 'STORAGE_QUOTA',
    })
    spy.mockRestore()
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([3, 2, 1])
  })

  it('skips rows that fail validation and clears per flow or entirely', async () => {
    const db = await freshDb()
    await saveRun(db, sampleRun('f1', 1), { keep: 5 })
    await db.runs.put({ ...sampleRun('f1', 2), status: 'exploded' as never })
    await saveRun(db, sampleRun('f2', 3), { keep: 5 })
    expect((await listRuns(db, 'f1')).map((r) => r.startedAt)).toEqual([1])
    expect(await getRun(db, 'run_f1_2')).toBeUndefined()
    expect(await clearRuns(db, 'f1')).toBe(2)
    expect(await clearRuns(db)).toBe(1)
    expect(await db.runs.count()).toBe(0)
  })
})
