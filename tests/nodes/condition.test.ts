import { describe, expect, it } from 'vitest'
import { preflight, runFlow, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry, nodeCatalog } from '../../src/nodes/registry.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

const rule = (value: string, op: string, to = '', extra: Record<string, unknown> = {}) => ({
  value,
  op,
  to,
  ...extra,
})

/** ticket -> route (billing | urgent | else) -> one template per branch -> merge. */
function router(category: string, text: string, mode: 'first' | 'all' = 'first'): FlowDocument {
  const doc = flow()
    .node('ticket', 'input', { values: { category, text, urgency: '2' } })
    .node('route', 'condition', {
      cases: [
        {
          id: 'billing',
          label: 'Billing',
          match: 'all',
          rules: [rule('{{ticket.category}}', 'equals', 'billing')],
        },
        {
          id: 'urgent',
          match: 'any',
          rules: [
            rule('{{ticket.urgency}}', 'gte', '4'),
            rule('{{ticket.text}}', 'matches', 'refund\\s+now', { ignoreCase: true }),
          ],
        },
      ],
    })
    .node('bill', 'template', { template: 'bill {{ticket.text}}' })
    .node('rush', 'template', { template: 'rush {{ticket.text}}' })
    .node('other', 'template', { template: 'other' })
    .node('join', 'merge', { mode })
    .edge('ticket', 'route')
    .build()
  const wire = (source: string, sourceHandle: string, target: string) =>
    doc.edges.push({
      id: `${source}_${sourceHandle}_${target}`,
      source,
      sourceHandle,
      target,
      targetHandle: 'in',
    })
  wire('route', 'billing', 'bill')
  wire('route', 'urgent', 'rush')
  wire('route', 'else', 'other')
  wire('bill', 'out', 'join')
  wire('rush', 'out', 'join')
  wire('other', 'out', 'join')
  return doc
}

async function run(doc: FlowDocument): Promise<RunEvent[]> {
  return collect(runFlow(doc, engineRegistry, testContext().ctx))
}

const finish = (events: RunEvent[], id: string) =>
  events.find(
    (e): e is Extract<RunEvent, { type: 'nodeFinish' }> => e.type === 'nodeFinish' && e.nodeId === id,
  )
const skipped = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'nodeSkipped' ? [[e.nodeId, e.reason]] : []))

describe('condition and merge', () => {
  it('takes the first case that holds; the other branches are not taken; the merge gets the one that ran', async () => {
    const events = await run(router('billing', 'Refund now please'))
    expect(finish(events, 'route')?.output).toEqual({ case: 'billing', value: 'billing' })
    expect(skipped(events)).toEqual([
      ['rush', 'notTaken'],
      ['other', 'notTaken'],
    ])
    expect(finish(events, 'join')?.output).toEqual({
      value: { text: 'bill Refund now please' },
      from: 'bill',
    })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('matches a regular expression ignoring case, in an `any` case', async () => {
    const events = await run(router('general', 'REFUND   NOW'))
    expect(finish(events, 'route')?.output).toEqual({ case: 'urgent', value: '2' })
    expect(finish(events, 'join')?.output).toMatchObject({ from: 'rush' })
  })

  it('takes else when no case holds, and says when a value is not a number', async () => {
    const doc = router('general', 'hello')
    const ticket = doc.nodes.find((n) => n.id === 'ticket')
    if (ticket) ticket.data.config = { values: { category: 'x', text: 'hello', urgency: 'high' } }
    const events = await run(doc)
    expect(finish(events, 'route')?.output).toEqual({ case: 'else', value: 'x' })
    const logs = events.flatMap((e) => (e.type === 'nodeChunk' && e.channel === 'log' ? [e.text] : []))
    expect(logs.join('')).toMatch(/"high" is not a number/)
    expect(finish(events, 'join')?.output).toMatchObject({ from: 'other' })
  })

  it('says in the console when a pattern built from upstream values is not a regular expression', async () => {
    const doc = flow()
      .node('in', 'input', { values: { text: 'refund now', pattern: '(refund' } })
      .node('route', 'condition', {
        cases: [{ id: 'hit', rules: [rule('{{in.text}}', 'matches', '{{in.pattern}}')] }],
      })
      .edge('in', 'route')
      .build()
    // Preflight cannot judge a pattern with a reference: the run is what finds it bad.
    expect(preflight(doc, engineRegistry).filter((p) => p.severity === 'error')).toEqual([])
    const events = await run(doc)
    expect(finish(events, 'route')?.output).toEqual({ case: 'else', value: 'refund now' })
    const logs = events.flatMap((e) => (e.type === 'nodeChunk' && e.channel === 'log' ? [e.text] : []))
    expect(logs.join('')).toMatch(
      /"\(refund" is not a regular expression \(.*\), so the rule matches is false\./,
    )
  })

  it('merge `all` keeps the outputs of the inputs that finished, by node id', async () => {
    const events = await run(router('billing', 'x', 'all'))
    expect(finish(events, 'join')?.output).toEqual({ values: { bill: { text: 'bill x' } } })
  })

  it('has one output handle per case plus else', () => {
    const route = router('a', 'b').nodes.find((n) => n.id === 'route')
    if (!route) throw new Error('fixture')
    expect(nodeCatalog.ports(route).outputs.map((p) => [p.id, p.label ?? p.labelKey])).toEqual([
      ['billing', 'Billing'],
      ['urgent', 'urgent'],
      ['else', 'nodes:condition.else'],
    ])
  })

  it('refuses a bad regular expression at preflight, at its path', () => {
    const doc = flow()
      .node('route', 'condition', { cases: [{ id: 'a', rules: [rule('x', 'matches', '(unclosed')] }] })
      .build()
    expect(preflight(doc, engineRegistry)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ nodeId: 'route', message: expect.stringMatching(/regular expression/) }),
      ]),
    )
  })
})
