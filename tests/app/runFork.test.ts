/**
 * Issue 19, item 3 through the run service and real IndexedDB (fake-indexeddb): forking a past
 * run makes a new flow of the run's flow as it ran; the past record stays byte-identical; the
 * fork's first run reuses the past run's results for what is unchanged (models that sample
 * included) and runs only what changed and what depends on it; it records its parent, and History
 * names it. The status History shows for a stopped run, old records included.
 */
import { describe, expect, it } from 'vitest'
import type { FlowDocument } from '../../src/engine/index.ts'
import { historyItem, historyStatusOf } from '../../src/app/runs/runHistory.ts'
import type { ForkHost } from '../../src/app/runs/forkService.ts'
import { getRun, listRuns, saveRun } from '../../src/storage/repositories/runs.ts'
import { loadFlow, restoreFlowDocument, saveFlow } from '../../src/storage/repositories/flows.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { selectDocument } from '../../src/store/flowStore.ts'
import { config, sampleRun } from '../storage/support.ts'
import { flow } from '../support/flowBuilders.ts'
import { harness, type Harness } from './runHarness.ts'

/** Two branches from two Inputs into one Output: a change to one Input leaves the other branch alone. */
function twoBranches(id = 'flow_src'): FlowDocument {
  return flow()
    .meta(id, 'Two branches')
    .node('in_a', 'input', config('input', { values: { topic: 'otters' } }))
    .node('in_b', 'input', config('input', { values: { topic: 'herons' } }))
    .node('llm_a', 'llm', config('llm', { prompt: 'About {{in_a.topic}}', temperature: 0.7 }))
    .node('llm_b', 'llm', config('llm', { prompt: 'About {{in_b.topic}}', temperature: 0.7 }))
    .node('out', 'output', config('output', { values: { a: '{{llm_a.response}}', b: '{{llm_b.response}}' } }))
    .edge('in_a', 'llm_a')
    .edge('in_b', 'llm_b')
    .edge('llm_a', 'out')
    .edge('llm_b', 'out')
    .build()
}

/** The app's fork host over the test database: save, then open in the flow store. */
function forkHost(h: Harness): ForkHost {
  let n = 0
  return {
    async create(doc) {
      await saveFlow(h.db, doc)
      const loaded = await loadFlow(h.db, doc.metadata.id)
      if (loaded) h.flows.getState().actions.load(loaded.doc)
    },
    restore: (snapshot) => restoreFlowDocument(snapshot),
    newFlowId: () => `flow_fork_${++n}`,
    now: () => '2026-12-02T10:00:00.000Z',
  }
}

function setInput(h: Harness, nodeId: string, topic: string): void {
  const doc = selectDocument(h.flows.getState()) as FlowDocument
  const nodes = doc.nodes.map((node) =>
    node.id === nodeId
      ? { ...node, data: { ...node.data, config: { ...node.data.config, values: { topic } } } }
      : node,
  )
  h.flows.getState().actions.load({ ...doc, nodes })
}

async function forkedRun(): Promise<{ h: Harness; parent: RunRecord; before: string; fork: RunRecord }> {
  let host: ForkHost | undefined
  const h: Harness = await harness({ forks: () => (host ??= forkHost(h)) })
  await saveFlow(h.db, twoBranches())
  h.open(twoBranches())
  await h.runToEnd()
  const [parent] = await listRuns(h.db, 'flow_src')
  const before = JSON.stringify(await getRun(h.db, (parent as RunRecord).id))
  await h.service.openRun((parent as RunRecord).id)
  await h.service.fork?.((parent as RunRecord).id)
  setInput(h, 'in_b', 'kingfishers')
  await h.runToEnd()
  const [fork] = await listRuns(h.db, 'flow_fork_1')
  return { h, parent: parent as RunRecord, before, fork: fork as RunRecord }
}

describe('fork a past run', () => {
  it('makes a new flow of the run as it ran, named after it, and leaves the past record byte-identical', async () => {
    const { h, parent, before } = await forkedRun()
    const forked = await loadFlow(h.db, 'flow_fork_1')
    expect(forked?.doc.metadata.forkOf).toEqual({ flowId: 'flow_src', runId: parent.id })
    expect(forked?.doc.metadata.name).toMatch(/^Two branches \(fork of /)
    expect(forked?.doc.nodes.map((n) => n.id)).toEqual(['in_a', 'in_b', 'llm_a', 'llm_b', 'out'])
    expect(h.flows.getState().flowId).toBe('flow_fork_1')
    // The past run's record is only read: every byte as before; its flow is unchanged too.
    expect(JSON.stringify(await getRun(h.db, parent.id))).toBe(before)
    const source = await loadFlow(h.db, 'flow_src')
    expect(source?.doc.nodes.find((n) => n.id === 'in_b')?.data.config).toMatchObject({
      values: { topic: 'herons' },
    })
    expect(await listRuns(h.db, 'flow_src')).toHaveLength(1)
  })

  it("reuses the past run's results for the unchanged branch (sampling models too) and runs the changed one", async () => {
    const { parent, fork } = await forkedRun()
    expect(fork.parentRunId).toBe(parent.id)
    expect(fork.forkedFrom).toEqual({
      runId: parent.id,
      flowId: 'flow_src',
      flowName: 'Two branches',
      startedAt: parent.startedAt,
    })
    // Only the changed Input, its model and the Output that joins both ran again.
    expect(Object.keys(fork.reused ?? {}).sort()).toEqual(['in_a', 'llm_a'])
    expect(fork.reused?.['llm_a']).toEqual({ reason: 'unchanged', fromRunId: parent.id })
    expect(fork.outputs['llm_a']).toEqual(parent.outputs['llm_a'])
    expect(fork.outputs['out']?.['b']).not.toBe(parent.outputs['out']?.['b'])
    const prompt = (fork.outputs['llm_b'] as { response?: string } | undefined)?.response
    expect(typeof prompt).toBe('string')
    // History names the parent.
    expect(historyItem(fork).forkedFrom?.runId).toBe(parent.id)
  })

  it('keeps the flow it ran in the record, so a past run can be compared and forked as it was', async () => {
    const { parent } = await forkedRun()
    const snapshot = parent.flow as FlowDocument
    expect(snapshot.metadata.id).toBe('flow_src')
    expect(snapshot.nodes).toHaveLength(5)
    expect('viewport' in (snapshot as object)).toBe(false)
  })

  it('once the fork has a run of its own, its next runs no longer reuse the parent', async () => {
    const { h } = await forkedRun()
    await h.runToEnd()
    const [latest] = await listRuns(h.db, 'flow_fork_1')
    expect(latest?.parentRunId).toBeUndefined()
    expect(latest?.forkedFrom).toBeUndefined()
    expect(latest?.reused).toBeUndefined()
  })
})

describe('History status of a run', () => {
  it('is one of success, error, stopped, interrupted: a stopped run recorded as cancelled reads as stopped', async () => {
    expect(['success', 'error', 'cancelled', 'interrupted', 'stopped'].map(historyStatusOf)).toEqual([
      'success',
      'error',
      'stopped',
      'interrupted',
      'stopped',
    ])
    // An old record, as saved before: read back from IndexedDB, listed as stopped.
    const h = await harness()
    await saveRun(h.db, { ...sampleRun('flow_old', 1_000), status: 'cancelled' }, { keep: 5 })
    const [old] = await listRuns(h.db, 'flow_old')
    expect(historyItem(old as RunRecord).status).toBe('stopped')
  })
})
