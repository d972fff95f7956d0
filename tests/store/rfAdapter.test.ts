import { describe, expect, it } from 'vitest'
import { createRfEdgesSelector, createRfNodesSelector } from '../../src/store/rfAdapter.ts'
import { doc, node, storeWith } from './helpers.ts'

describe('React Flow adapter', () => {
  const many = () =>
    doc(
      Array.from({ length: 50 }, (_, i) => node(`n_${i}`, 'template', i * 10, 0)),
      [{ id: 'e', source: 'n_0', target: 'n_1' }],
    )

  it('rebuilds only the node that moved, keeping every other object identical', () => {
    const { store } = storeWith(many())
    const select = createRfNodesSelector()
    const before = select(store.getState())
    store
      .getState()
      .actions.onNodesChange([{ type: 'position', id: 'n_7', position: { x: 1, y: 2 }, dragging: true }])
    const after = select(store.getState())
    expect(after).not.toBe(before)
    const changed = after.filter((rf, i) => rf !== before[i]).map((rf) => rf.id)
    expect(changed).toEqual(['n_7'])
    expect(after[7]?.position).toEqual({ x: 1, y: 2 })
  })

  it('returns the same array when nothing the canvas draws changed', () => {
    const { store } = storeWith(many())
    const select = createRfNodesSelector()
    const before = select(store.getState())
    store.getState().actions.setViewport({ x: 5, y: 5, zoom: 1 })
    expect(select(store.getState())).toBe(before)
  })

  it('marks selection and carries measured sizes and note sizes', () => {
    const { store } = storeWith(doc([node('a'), { ...node('n', 'note'), size: { width: 240, height: 120 } }]))
    store.getState().actions.select(['a'])
    store
      .getState()
      .actions.onNodesChange([{ type: 'dimensions', id: 'a', dimensions: { width: 180, height: 60 } }])
    const [a, n] = createRfNodesSelector()(store.getState())
    expect(a).toMatchObject({
      id: 'a',
      type: 'wardflow',
      selected: true,
      measured: { width: 180, height: 60 },
    })
    expect(n).toMatchObject({ id: 'n', type: 'note', selected: false, width: 240, height: 120 })
  })

  it('maps edges with their selection', () => {
    const { store } = storeWith(many())
    store.getState().actions.select([], ['e'])
    expect(createRfEdgesSelector()(store.getState())).toEqual([
      expect.objectContaining({ id: 'e', source: 'n_0', target: 'n_1', selected: true }),
    ])
  })

  it('gives each edge the handles it names, so a case edge leaves from its case', () => {
    const { store } = storeWith(
      doc(
        [node('a', 'template', 0, 0), node('b', 'template', 10, 0)],
        [
          { id: 'plain', source: 'a', target: 'b' },
          { id: 'named', source: 'a', sourceHandle: 'billing', target: 'b', targetHandle: 'in' },
        ],
      ),
    )
    expect(createRfEdgesSelector()(store.getState())).toEqual([
      expect.objectContaining({ id: 'plain', sourceHandle: null, targetHandle: null }),
      expect.objectContaining({ id: 'named', sourceHandle: 'billing', targetHandle: 'in' }),
    ])
  })
})
