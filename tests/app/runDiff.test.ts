/**
 * Issue 19, item 4: what differs from a past run's flow to the live flow, as the past-run view
 * lists it: nodes added, removed, changed (which config fields, label, pin), connections; key
 * order never counts. Through the run service, a record's snapshot against the open flow.
 */
import { describe, expect, it } from 'vitest'
import type { FlowDocument } from '../../src/engine/index.ts'
import { diffFlows, isSameFlow } from '../../src/app/runs/runDiff.ts'
import { restoreFlowDocument } from '../../src/storage/repositories/flows.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import { sampleFlow } from '../storage/support.ts'
import { harness } from './runHarness.ts'

function patchNode(doc: FlowDocument, id: string, config: Record<string, unknown>): FlowDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) =>
      n.id === id ? { ...n, data: { ...n.data, config: { ...n.data.config, ...config } } } : n,
    ),
  }
}

describe('diff from the live flow', () => {
  it('is empty for the same flow, whatever the key order of configs', () => {
    const doc = sampleFlow()
    const reordered: FlowDocument = {
      ...doc,
      nodes: doc.nodes.map((n) => ({
        ...n,
        data: { ...n.data, config: Object.fromEntries(Object.entries(n.data.config).reverse()) },
      })),
    }
    expect(isSameFlow(diffFlows(doc, reordered))).toBe(true)
  })

  it('names the changed config fields, the nodes added and removed, and counts connections', () => {
    const past = sampleFlow()
    let live = patchNode(past, 'tpl_1', { template: 'Tell me more about {{in_1.topic}}' })
    live = patchNode(live, 'llm_1', { temperature: 0.9 })
    live = {
      ...live,
      nodes: [
        ...live.nodes.filter((n) => n.id !== 'out_1'),
        { ...(past.nodes.find((n) => n.id === 'out_1') as FlowDocument['nodes'][number]), id: 'out_2' },
      ],
      edges: live.edges.map((e) => (e.target === 'out_1' ? { ...e, id: 'e2', target: 'out_2' } : e)),
    }
    const diff = diffFlows(past, live)
    expect(diff.changed.map((c) => [c.id, c.changes])).toEqual([
      ['tpl_1', ['config.template']],
      ['llm_1', ['config.temperature']],
    ])
    expect(diff.added.map((n) => n.id)).toEqual(['out_2'])
    expect(diff.removed.map((n) => n.id)).toEqual(['out_1'])
    expect([diff.edgesAdded, diff.edgesRemoved]).toEqual([1, 1])
    expect(isSameFlow(diff)).toBe(false)
  })

  it('through the run service: a past run against the open flow edited since', async () => {
    const h = await harness({
      forks: () => ({ create: async () => undefined, restore: (s) => restoreFlowDocument(s) }),
    })
    const doc = sampleFlow('flow_diff')
    h.open(doc)
    await h.runToEnd()
    const [record] = await listRuns(h.db, 'flow_diff')
    expect(await h.service.pastRunDiff?.(record?.id ?? '')).toMatchObject({
      added: [],
      removed: [],
      changed: [],
    })
    h.open(patchNode(doc, 'tpl_1', { template: 'Other {{in_1.topic}}' }))
    const diff = await h.service.pastRunDiff?.(record?.id ?? '')
    expect(diff?.changed).toEqual([
      { id: 'tpl_1', type: 'template', label: expect.any(String), changes: ['config.template'] },
    ])
  })
})
