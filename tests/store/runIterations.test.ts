import { describe, expect, it } from 'vitest'
import { runFlow, type FlowDocument } from '../../src/engine/index.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { replayRunEvents } from '../../src/store/runStoreReducer.ts'
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
})
