import { describe, expect, it } from 'vitest'
import type { FlowEdge, FlowNode } from '../../src/engine/index.ts'
import {
  asCases,
  caseIdProblem,
  moved,
  previewChoice,
  upstreamRefs,
} from '../../src/ui/inspector/fields/casesModel.ts'

const cases = asCases([
  {
    id: 'billing',
    label: 'Billing',
    match: 'all',
    rules: [{ value: '{{in.topic}}', op: 'equals', to: 'bill' }],
  },
  {
    id: 'urgent',
    match: 'any',
    rules: [
      { value: '{{in.level}}', op: 'gte', to: '4' },
      { value: '{{in.topic}}', op: 'matches', to: 'REFUND', ignoreCase: true },
    ],
  },
])

const outputs =
  (values: Record<string, unknown>) =>
  (id: string): Record<string, unknown> | undefined =>
    id === 'in' ? values : undefined

describe('condition preview (the engine evaluation on the last run values)', () => {
  it('names the first case whose rules hold', () => {
    expect(previewChoice(cases, outputs({ topic: 'bill', level: '9' }))?.taken).toBe('billing')
    expect(previewChoice(cases, outputs({ topic: 'other', level: '4' }))?.taken).toBe('urgent')
    expect(previewChoice(cases, outputs({ topic: 'Refund please', level: 'x' }))?.taken).toBe('urgent')
  })

  it('takes else when no case holds, or when the values are missing', () => {
    expect(previewChoice(cases, outputs({ topic: 'other', level: '1' }))?.taken).toBe('else')
    expect(previewChoice(cases, () => undefined)?.taken).toBe('else')
  })

  it('gives no preview for a reference with a refused name', () => {
    const bad = asCases([{ id: 'a', rules: [{ value: '{{in.__proto__}}', op: 'isEmpty' }] }])
    expect(previewChoice(bad, outputs({}))).toBeNull()
  })
})

describe('cases editor model', () => {
  it('refuses ids that cannot be handles', () => {
    expect(caseIdProblem(cases, 0, 'else')).toBe('else')
    expect(caseIdProblem(cases, 0, 'urgent')).toBe('duplicate')
    expect(caseIdProblem(cases, 0, 'has space')).toBe('pattern')
    expect(caseIdProblem(cases, 0, 'billing2')).toBeNull()
  })

  it('moves a case', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b'])
  })

  it('offers the declared output fields of every upstream node', () => {
    const node = (id: string, type: string, config: Record<string, unknown>): FlowNode => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: { label: id, config },
    })
    const nodes = [
      node('in', 'input', { values: { topic: 'x', level: '1' } }),
      node('t', 'template', { template: '{{in.topic}}' }),
      node('route', 'condition', {}),
      node('side', 'template', { template: '' }),
    ]
    const edges: FlowEdge[] = [
      { id: 'e1', source: 'in', target: 't' },
      { id: 'e2', source: 't', target: 'route' },
      { id: 'e3', source: 'route', target: 'side' },
    ]
    const groups = upstreamRefs('route', nodes, edges)
    expect(groups.map((g) => g.nodeId)).toEqual(['t', 'in'])
    expect(groups[1]?.refs).toEqual(['{{in.topic}}', '{{in.level}}'])
    expect(groups[0]?.refs.length).toBeGreaterThan(0)
  })
})
