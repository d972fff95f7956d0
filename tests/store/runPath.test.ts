import { describe, expect, it } from 'vitest'
import { runFlow, type FlowDocument } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { runLineLabeller } from '../../src/app/runs/runLines.ts'
import { replayRunEvents } from '../../src/store/runStoreReducer.ts'
import { notTakenCause, takenEdgeIds } from '../../src/store/runPath.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

/** ask -> route (yes | else) -> yesT / noT -> yesOut / noOut. */
function branching(answer: string): FlowDocument {
  const doc = flow()
    .node('ask', 'input', { values: { answer } })
    .node('route', 'condition', {
      cases: [
        {
          id: 'yes',
          label: 'Yes',
          match: 'all',
          rules: [{ value: '{{ask.answer}}', op: 'equals', to: 'y' }],
        },
      ],
    })
    .node('yesT', 'template', { template: 'yes' })
    .node('noT', 'template', { template: 'no' })
    .node('yesOut', 'output', { values: { v: '{{yesT.text}}' } })
    .edge('ask', 'route')
    .build()
  const wire = (id: string, source: string, sourceHandle: string, target: string) =>
    doc.edges.push({ id, source, sourceHandle, target, targetHandle: 'in' })
  wire('r_yes', 'route', 'yes', 'yesT')
  wire('r_else', 'route', 'else', 'noT')
  wire('yes_out', 'yesT', 'out', 'yesOut')
  return doc
}

const t = (key: string, values?: Record<string, string | number>) =>
  `${key}${values ? JSON.stringify(values) : ''}`

async function replayed(doc: FlowDocument) {
  const events = await collect(runFlow(doc, engineRegistry, testContext().ctx))
  const lines = runLineLabeller(
    t,
    () => undefined,
    () => ({ nodes: doc.nodes, edges: doc.edges }),
  )
  return replayRunEvents(events, { lines })
}

describe('the path a run took', () => {
  it('marks the edges that carried a value, and swaps them when the other case is taken', async () => {
    const yes = branching('y')
    const viewYes = await replayed(yes)
    expect([...takenEdgeIds(yes.nodes, yes.edges, viewYes.nodes)].sort()).toEqual(
      [yes.edges[0]?.id, 'r_yes', 'yes_out'].sort(),
    )
    const no = branching('n')
    const viewNo = await replayed(no)
    expect([...takenEdgeIds(no.nodes, no.edges, viewNo.nodes)].sort()).toEqual(
      [no.edges[0]?.id, 'r_else'].sort(),
    )
    expect(viewNo.nodes['yesT']?.skipCode).toBe('notTaken')
    expect(viewNo.nodes['yesOut']?.skipCode).toBe('notTaken')
  })

  it('says which condition chose another case, through a chain of not-taken nodes', async () => {
    const no = branching('n')
    const view = await replayed(no)
    expect(notTakenCause('yesOut', no.nodes, no.edges, view.nodes)).toEqual({
      nodeId: 'route',
      chose: 'else',
    })
    expect(view.nodes['yesOut']?.skipReason).toBe(
      'run:lines.notTakenBy{"name":"route","case":"nodes:condition.else"}',
    )
    const yes = branching('y')
    const viewYes = await replayed(yes)
    expect(viewYes.nodes['noT']?.skipReason).toBe('run:lines.notTakenBy{"name":"route","case":"Yes"}')
  })
})
