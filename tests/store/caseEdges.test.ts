import { describe, expect, it } from 'vitest'
import type { FlowEdge } from '../../src/engine/index.ts'
import { depth, doc, node, storeWith } from './helpers.ts'

const rule = { value: '{{in.x}}', op: 'equals', to: 'a' }
const cases = (...ids: string[]) => ids.map((id) => ({ id, match: 'all', rules: [rule] }))

function flow() {
  const edges: FlowEdge[] = [
    { id: 'e1', source: 'route', target: 'ta', sourceHandle: 'a', targetHandle: null },
    { id: 'e2', source: 'route', target: 'tb', sourceHandle: 'b', targetHandle: null },
    { id: 'e3', source: 'route', target: 'te', sourceHandle: 'else', targetHandle: null },
  ]
  return storeWith(
    doc(
      [
        node('route', 'condition', 0, 0, { configVersion: 1, cases: cases('a', 'b') }),
        node('ta'),
        node('tb'),
        node('te'),
      ],
      edges,
    ),
  )
}

const handles = (edges: readonly FlowEdge[]) => edges.map((e) => `${e.id}:${e.sourceHandle ?? ''}`)

describe('editing a condition case keeps its edges right', () => {
  it('re-points the edges of a renamed case in the same undo step', () => {
    const { store } = flow()
    const { actions } = store.getState()
    actions.setConfigField('route', 'cases', cases('a', 'urgent'))
    expect(handles(store.getState().edges)).toEqual(['e1:a', 'e2:urgent', 'e3:else'])
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(handles(store.getState().edges)).toEqual(['e1:a', 'e2:b', 'e3:else'])
    expect(store.getState().nodes[0]?.data.config['cases']).toEqual(cases('a', 'b'))
  })

  it('drops the edges of a deleted case, and undo brings them back', () => {
    const { store } = flow()
    const { actions } = store.getState()
    actions.setConfigField('route', 'cases', cases('b'))
    expect(handles(store.getState().edges)).toEqual(['e2:b', 'e3:else'])
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(handles(store.getState().edges)).toEqual(['e1:a', 'e2:b', 'e3:else'])
  })

  it('keeps every edge when cases are only reordered or one is added', () => {
    const { store } = flow()
    const { actions } = store.getState()
    actions.setConfigField('route', 'cases', cases('b', 'a'))
    expect(handles(store.getState().edges)).toEqual(['e1:a', 'e2:b', 'e3:else'])
    actions.setConfigField('route', 'cases', cases('b', 'a', 'c'), 'add')
    expect(handles(store.getState().edges)).toEqual(['e1:a', 'e2:b', 'e3:else'])
  })
})
