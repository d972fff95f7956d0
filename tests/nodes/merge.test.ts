import { describe, expect, it } from 'vitest'
import { preflight, runFlow, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

/**
 * Two templates both taken, wired into a merge in the order `late` then `early` edge-wise; the
 * ids are integer-like on purpose: a record lists "20" before "100" whatever the edge order.
 */
function joined(merge: Record<string, unknown>, read = '{{join.value.text}}'): FlowDocument {
  return flow()
    .node('100', 'template', { template: 'from one hundred' })
    .node('20', 'template', { template: 'from twenty' })
    .node('join', 'merge', merge)
    .node('show', 'template', { template: read })
    .edge('100', 'join')
    .edge('20', 'join')
    .edge('join', 'show')
    .build()
}

async function run(doc: FlowDocument): Promise<RunEvent[]> {
  return collect(runFlow(doc, engineRegistry, testContext().ctx))
}

function outputOf(events: RunEvent[], nodeId: string): Record<string, unknown> {
  const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === nodeId)
  if (finish?.type !== 'nodeFinish') throw new Error(`${nodeId} did not finish: ${JSON.stringify(events)}`)
  return finish.output
}

describe('merge', () => {
  it('first follows the order of its incoming edges, not the ids', async () => {
    const events = await run(joined({ mode: 'first' }))
    expect(outputOf(events, 'join')).toMatchObject({ from: '100', value: { text: 'from one hundred' } })
    expect(outputOf(events, 'show')).toMatchObject({ text: 'from one hundred' })
  })

  it('first with outputKey and outputField: the key holds that field of the chosen input', async () => {
    const doc = joined(
      { mode: 'first', outputKey: 'selected_prompt', outputField: 'text' },
      '{{join.selected_prompt}}!',
    )
    const events = await run(doc)
    expect(outputOf(events, 'join')).toEqual({
      value: { text: 'from one hundred' },
      from: '100',
      selected_prompt: 'from one hundred',
    })
    expect(outputOf(events, 'show')).toMatchObject({ text: 'from one hundred!' })
  })

  it('all with outputKey and outputField: the key holds that field of each input by node id', async () => {
    const events = await run(
      joined({ mode: 'all', outputKey: 'picked', outputField: 'text' }, '{{join.picked}}'),
    )
    const out = outputOf(events, 'join')
    expect(out.picked).toEqual({ '100': 'from one hundred', '20': 'from twenty' })
    expect(out.values).toEqual({ '100': { text: 'from one hundred' }, '20': { text: 'from twenty' } })
  })

  it('outputKey without outputField holds the same as value / values', async () => {
    const first = outputOf(await run(joined({ mode: 'first', outputKey: 'result' })), 'join')
    expect(first.result).toEqual(first.value)
    const all = outputOf(await run(joined({ mode: 'all', outputKey: 'result' })), 'join')
    expect(all.result).toEqual(all.values)
  })

  it('preflight accepts a reference to its outputKey and still refuses an unknown field', () => {
    const good = preflight(
      joined({ mode: 'first', outputKey: 'selected_prompt' }, '{{join.selected_prompt}}'),
      engineRegistry,
    )
    expect(good).toEqual([])
    const bad = preflight(joined({ mode: 'first' }, '{{join.selected_prompt}}'), engineRegistry)
    expect(JSON.stringify(bad)).toContain('selected_prompt')
  })

  it('refuses an outputKey a template could not name', () => {
    const definition = engineRegistry.get('merge')
    expect(definition?.parseConfig({ mode: 'first', outputKey: 'a.b' }).ok).toBe(false)
    expect(definition?.parseConfig({ mode: 'first', outputKey: 'ok_key' }).ok).toBe(true)
  })
})
