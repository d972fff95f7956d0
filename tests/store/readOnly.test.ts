import { describe, expect, it } from 'vitest'
import { depth, doc, node, storeWith } from './helpers.ts'

const twoNodes = () => doc([node('a'), node('b')], [{ id: 'e1', source: 'a', target: 'b' }])

describe('a read-only flow (a past run is shown)', () => {
  it('refuses every edit of the document, whichever control asks', () => {
    const { store } = storeWith(twoNodes())
    const { actions } = store.getState()
    actions.setLabel('a', 'before')
    actions.setReadOnly(true)
    const before = {
      nodes: store.getState().nodes,
      edges: store.getState().edges,
      meta: store.getState().metadata,
    }
    const past = depth(store)

    expect(actions.addNode({ type: 'llm', position: { x: 0, y: 0 }, label: 'LLM', config: {} })).toBeNull()
    actions.select(['a'])
    actions.removeSelection()
    actions.removeNodes(['b'])
    actions.setLabel('a', 'after')
    actions.setConfigField('a', 'prompt', 'x')
    expect(actions.connect({ source: 'b', target: 'a' })).toEqual({ ok: false, reason: 'READ_ONLY' })
    expect(actions.insertCopies([node('c')], [], { x: 10, y: 10 })).toEqual([])
    expect(actions.duplicateSelection({ x: 10, y: 10 })).toEqual([])
    actions.setPositions(new Map([['a', { x: 500, y: 500 }]]))
    actions.onNodesChange([
      { type: 'position', id: 'a', position: { x: 300, y: 300 }, dragging: true },
      { type: 'remove', id: 'b' },
    ])
    actions.onEdgesChange([{ type: 'remove', id: 'e1' }])
    actions.rename('Another name')
    actions.undo()

    const after = store.getState()
    expect(after.nodes).toBe(before.nodes)
    expect(after.edges).toBe(before.edges)
    expect(after.metadata).toBe(before.meta)
    expect(depth(store)).toBe(past)
  })

  it('still selects and measures, and edits again once live', () => {
    const { store } = storeWith(twoNodes())
    const { actions } = store.getState()
    actions.setReadOnly(true)
    actions.onNodesChange([
      { type: 'select', id: 'b', selected: true },
      { type: 'dimensions', id: 'b', dimensions: { width: 200, height: 90 }, setAttributes: true },
    ])
    expect([...store.getState().selectedNodeIds]).toEqual(['b'])
    expect(store.getState().measured['b']).toEqual({ width: 200, height: 90 })
    expect(store.getState().nodes.find((n) => n.id === 'b')?.size).toBeUndefined()

    actions.setReadOnly(false)
    actions.setLabel('b', 'live again')
    expect(store.getState().nodes.find((n) => n.id === 'b')?.data.label).toBe('live again')
  })
})
