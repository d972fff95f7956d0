/**
 * Issue 19, item 2 through the run service and real IndexedDB: full runs reuse unchanged results
 * only when the flow says so (off by default); a model sampling above temperature 0 runs again;
 * the record says which nodes were reused and from which run.
 */
import { describe, expect, it } from 'vitest'
import type { FlowDocument } from '../../src/engine/index.ts'
import { listRuns } from '../../src/storage/repositories/runs.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { sampleFlow } from '../storage/support.ts'
import { harness } from './runHarness.ts'

function withReuse(doc: FlowDocument, temperature?: number): FlowDocument {
  const nodes = doc.nodes.map((n) =>
    n.id === 'llm_1' && temperature !== undefined
      ? { ...n, data: { ...n.data, config: { ...n.data.config, temperature } } }
      : n,
  )
  return { ...doc, nodes, metadata: { ...doc.metadata, reuseUnchanged: true } }
}

async function twoRuns(doc: FlowDocument): Promise<RunRecord> {
  const h = await harness()
  h.open(doc)
  await h.runToEnd()
  await h.runToEnd()
  const [latest] = await listRuns(h.db, doc.metadata.id)
  return latest as RunRecord
}

describe('reuse unchanged results in full runs', () => {
  it('is off by default: the second run runs everything again', async () => {
    const latest = await twoRuns(sampleFlow('flow_off'))
    expect(latest.id).toBe('run_2')
    expect(latest.reused).toBeUndefined()
  })

  it('when the flow says so, reuses the unchanged nodes, naming the run; a sampling model runs again', async () => {
    const latest = await twoRuns(withReuse(sampleFlow('flow_on')))
    expect(latest.reused?.['in_1']).toEqual({ reason: 'unchanged', fromRunId: 'run_1' })
    expect(latest.reused?.['tpl_1']).toEqual({ reason: 'unchanged', fromRunId: 'run_1' })
    expect(latest.reused?.['llm_1']).toBeUndefined()
  })

  it('reuses a model at temperature 0 too (same inputs, same reply)', async () => {
    const latest = await twoRuns(withReuse(sampleFlow('flow_zero'), 0))
    expect(Object.keys(latest.reused ?? {}).sort()).toEqual(['in_1', 'llm_1', 'out_1', 'tpl_1'])
    expect(latest.usage.total).toBe(0)
  })
})
