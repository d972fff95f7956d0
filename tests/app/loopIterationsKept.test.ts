/**
 * A forEach over 10,000 items keeps only the newest LOOP_STORED_ITERATIONS_MAX iterations in the
 * run store and in the run record (saved to IndexedDB and replayed), counting the older ones; the
 * loop's own results keep every item.
 */
import { describe, expect, it } from 'vitest'
import { replayRecord } from '../../src/app/runs/runHistory.ts'
import { parseStoredEvents } from '../../src/app/runs/runEventSchema.ts'
import { RunRecorder } from '../../src/app/runs/runRecorder.ts'
import { LOOP_STORED_ITERATIONS_MAX, LOOP_STORED_ITERATIONS_MAX_RANGE } from '../../src/defaults.ts'
import { runFlow, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { getRun, saveRun } from '../../src/storage/repositories/runs.ts'
import { replayRunEvents } from '../../src/store/runStoreReducer.ts'
import { freshDb } from '../storage/support.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

const ITEMS = 10_000

function bigLoop(): FlowDocument {
  const items = JSON.stringify(Array.from({ length: ITEMS }, (_, i) => `item ${i}`))
  const doc = flow()
    .node('src', 'template', { template: items })
    .node('each', 'loop', { items: '{{src.text}}', concurrency: 4, resultNode: 'b' })
    .node('a', 'template', { template: '{{each.item}}' })
    .node('b', 'template', { template: '#{{each.index}} {{a.text}}' })
    .edge('src', 'each')
    .edge('a', 'b')
    .build()
  for (const n of doc.nodes) if (n.id === 'a' || n.id === 'b') n.parentId = 'each'
  return doc
}

function record(events: readonly RunEvent[], max?: number) {
  const recorder = new RunRecorder('f', {}, undefined, max)
  for (const e of events) recorder.push(e)
  const out = recorder.record()
  if (!out) throw new Error('the run did not finish')
  return out
}

describe('iterations kept of a big loop', () => {
  it('has a default within its range', () => {
    expect(LOOP_STORED_ITERATIONS_MAX).toBeGreaterThanOrEqual(LOOP_STORED_ITERATIONS_MAX_RANGE.min)
    expect(LOOP_STORED_ITERATIONS_MAX).toBeLessThanOrEqual(LOOP_STORED_ITERATIONS_MAX_RANGE.max)
  })

  it('keeps the newest iterations in the store, the record and IndexedDB; counts the rest', async () => {
    const events = await collect(runFlow(bigLoop(), engineRegistry, testContext().ctx))
    const bodyEvents = events.filter((e) => e.nesting !== undefined).length
    expect(bodyEvents).toBeGreaterThanOrEqual(ITEMS * 4)

    // The live store: a hundred records per body node, the older ones counted.
    const live = replayRunEvents(events)
    const b = live.nodes['b']
    expect(b?.iterations).toHaveLength(LOOP_STORED_ITERATIONS_MAX)
    expect(b?.iterations?.[0]?.iteration).toBe(ITEMS - LOOP_STORED_ITERATIONS_MAX)
    expect(b?.iterations?.at(-1)).toMatchObject({ iteration: ITEMS - 1, status: 'success' })
    expect(b?.iterations?.at(-1)?.output).toEqual({ text: `#${ITEMS - 1} item ${ITEMS - 1}` })
    expect(b?.iterationsNotKept).toBe(ITEMS - LOOP_STORED_ITERATIONS_MAX)

    // The record: the body events of a hundred iterations, the loop's results whole.
    const run = record(events)
    const kept = run.events.filter((e) => (e as RunEvent).nesting !== undefined)
    expect(kept.length).toBeLessThanOrEqual(LOOP_STORED_ITERATIONS_MAX * 2 * 3)
    expect(run.iterationsNotKept).toEqual({ each: ITEMS - LOOP_STORED_ITERATIONS_MAX })
    expect((run.outputs['each']?.['results'] as unknown[]).length).toBe(ITEMS)
    // What is left is mostly the items themselves (the list, the loop's input and its results).
    expect(JSON.stringify(kept).length).toBeLessThan(100_000)
    expect(JSON.stringify(run).length).toBeLessThan(JSON.stringify(events).length / 5)

    // Saved and read back, a replay shows the kept iterations and says how many were not kept.
    const db = await freshDb()
    await saveRun(db, run, { keep: 5 })
    const stored = await getRun(db, run.id)
    expect(stored?.iterationsNotKept).toEqual({ each: ITEMS - LOOP_STORED_ITERATIONS_MAX })
    const past = replayRecord(stored!)
    expect(past.nodes['b']?.iterations?.map((r) => r.iteration)).toEqual(
      Array.from({ length: LOOP_STORED_ITERATIONS_MAX }, (_, i) => ITEMS - LOOP_STORED_ITERATIONS_MAX + i),
    )
    expect(past.nodes['each']?.iterationsNotKept).toBe(ITEMS - LOOP_STORED_ITERATIONS_MAX)
    expect(past.nodes['each']?.status).toBe('success')
    db.close()
  })

  it("keeps a stored body event's iteration, so a replay files it under its loop, not a sub-flow", () => {
    const parsed = parseStoredEvents([
      {
        type: 'nodeFinish',
        runId: 'r',
        at: 1,
        nodeId: 'b',
        status: 'success',
        output: { text: 'x' },
        durationMs: 0,
        path: ['outer', 'each'],
        iteration: 2,
        iterations: [1, 2],
      },
    ])
    // A record in loopui's shape (loop ids in `path`, every index in `iterations`) reads as nesting.
    expect(parsed[0]).toMatchObject({
      nesting: [
        { nodeId: 'outer', kind: 'loop', iteration: 1 },
        { nodeId: 'each', kind: 'loop', iteration: 2 },
      ],
    })
    expect(parsed[0]).not.toHaveProperty('path')
    expect(parsed[0]).not.toHaveProperty('iterations')
    expect(replayRunEvents(parsed).nodes['b']?.iterations?.map((r) => r.key)).toEqual(['1.2'])
  })

  it('in a loop in a loop, drops the inner events with their outer iteration', async () => {
    const doc = flow()
      .node('src', 'template', { template: JSON.stringify(Array.from({ length: 12 }, () => [1, 2, 3])) })
      .node('outer', 'loop', { items: '{{src.text}}', resultNode: 'inner' })
      .node('inner', 'loop', { items: '{{outer.item}}' })
      .node('t', 'template', { template: '{{outer.index}}.{{inner.index}}' })
      .edge('src', 'outer')
      .build()
    for (const n of doc.nodes) {
      if (n.id === 'inner') n.parentId = 'outer'
      if (n.id === 't') n.parentId = 'inner'
    }
    const events = await collect(runFlow(doc, engineRegistry, testContext().ctx))
    const run = record(events, 4)
    const texts = (run.events as RunEvent[]).flatMap((e) =>
      e.type === 'nodeFinish' && e.nodeId === 't' ? [String(e.output['text'])] : [],
    )
    // The last 4 outer iterations, each with its 3 inner ones (3 < 4: none dropped inside).
    expect(texts).toEqual(['8', '9', '10', '11'].flatMap((o) => [0, 1, 2].map((i) => `${o}.${i}`)))
    expect(run.iterationsNotKept).toEqual({ outer: 8 })
  })
})
