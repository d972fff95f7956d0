import { describe, expect, it } from 'vitest'
import { runFlow, type FlowDocument } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { withIteration } from '../../src/store/iterationRecords.ts'
import { IDLE_RUN_STATE, replayRunEvents, type NodeRunState } from '../../src/store/runStoreReducer.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

function loopFlow(): FlowDocument {
  const doc = flow()
    .node('each', 'loop', { items: '["a", "", "c"]', onItemError: 'continue' })
    .node('t', 'template', { template: '{{each.index}}:{{each.item}}' })
    .node('out', 'output', { values: { n: '{{each.count}}' } })
    .edge('each', 'out')
    .build()
  for (const n of doc.nodes) if (n.id === 't') n.parentId = 'each'
  return doc
}

describe('run store: loop iterations', () => {
  it("keeps each iteration's inputs and output on the body node, and counts only the loop", async () => {
    const events = await collect(runFlow(loopFlow(), engineRegistry, testContext().ctx))
    const view = replayRunEvents(events)
    const body = view.nodes['t']
    expect(body?.iterations?.map((r) => [r.iteration, r.status, r.output?.['text']])).toEqual([
      [0, 'success', '0:a'],
      [1, 'success', '1:'],
      [2, 'success', '2:c'],
    ])
    expect(body?.iterations?.every((r) => r.loops.map((s) => s.nodeId).join() === 'each')).toBe(true)
    expect(view.run?.total).toBe(2)
    expect(view.run?.done).toBe(2)
    expect(view.run?.status).toBe('success')
    expect(view.nodes['each']?.iterations).toBeUndefined()
  })

  it("keeps each iteration's own console text apart from the other iterations'", async () => {
    const doc = flow()
      .node('each', 'loop', { items: '["a", "b"]', concurrency: 2, onItemError: 'continue' })
      .node('t', 'output', { values: { v: '{{each.item}}' } })
      .build()
    for (const n of doc.nodes) if (n.id === 't') n.parentId = 'each'
    const events = await collect(runFlow(doc, engineRegistry, testContext().ctx))
    const t = replayRunEvents(events).nodes['t']
    expect(t?.iterations?.map((r) => [r.key, r.lines?.map((l) => l.text).join('')])).toEqual([
      ['0', 'a'],
      ['1', 'b'],
    ])
    // The node's own console still has both (the latest-run view), mixed.
    expect(t?.consoleLines.map((l) => l.text).join('|')).toBe('ab')
  })

  it('keeps the newest `max` iterations by index, counting older ones once, also out of order', () => {
    const place = (iteration: number, iterations?: number[]) => ({
      nesting: iterations
        ? [
            { nodeId: 'outer', kind: 'loop' as const, iteration: iterations[0] },
            { nodeId: 'each', kind: 'loop' as const, iteration: iterations[1] },
          ]
        : [{ nodeId: 'each', kind: 'loop' as const, iteration }],
    })
    let state: NodeRunState = IDLE_RUN_STATE
    const start = (i: number, chain?: number[]) =>
      (state = withIteration(
        state,
        { type: 'nodeStart', ...place(i, chain) },
        { status: 'running' },
        undefined,
        3,
      ))
    for (const i of [1, 0, 3, 2]) start(i)
    expect(state.iterations?.map((r) => r.key)).toEqual(['1', '2', '3'])
    expect(state.iterationsNotKept).toBe(1)
    // An older one arriving late is left out, counted at its start, not again at its finish.
    state = withIteration(state, { type: 'nodeStart', ...place(0) }, {}, undefined, 3)
    state = withIteration(state, { type: 'nodeFinish', ...place(0) }, { status: 'success' }, undefined, 3)
    expect(state.iterations?.map((r) => r.key)).toEqual(['1', '2', '3'])
    expect(state.iterationsNotKept).toBe(2)
    // In a loop in a loop records are keyed by every index: inner 0 of outer 1 is not inner 0 of outer 0.
    let nested: NodeRunState = IDLE_RUN_STATE
    for (const chain of [
      [0, 0],
      [0, 1],
      [1, 0],
    ])
      nested = withIteration(nested, { type: 'nodeStart', ...place(chain[1]!, chain) }, {}, undefined, 5)
    expect(nested.iterations?.map((r) => r.key)).toEqual(['0.0', '0.1', '1.0'])
  })
})
