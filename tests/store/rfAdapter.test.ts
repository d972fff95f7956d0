import { describe, expect, it } from 'vitest'
// React Flow's own code deciding which nodes it draws (what <ReactFlow> runs with these nodes).
import { adoptUserNodes, getNodesInside, type InternalNodeBase } from '@xyflow/system'
import { NODE_HANDLE_SIZE_PX, NODE_HEIGHT_PX, NODE_WIDTH_PX } from '../../src/defaults.ts'
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

  it('gives a node not measured yet handles where its body draws them, and drops them once measured', () => {
    const { store } = storeWith(
      doc([node('i', 'input'), node('t', 'template'), node('o', 'output'), node('n', 'note')]),
    )
    const [i, t, o, n] = createRfNodesSelector()(store.getState())
    const half = NODE_HANDLE_SIZE_PX / 2
    const y = NODE_HEIGHT_PX / 2 - half
    const target = { id: 'in', type: 'target', position: 'left', x: -half, y }
    const source = { id: 'out', type: 'source', position: 'right', x: NODE_WIDTH_PX - half, y }
    expect(i?.handles).toEqual([expect.objectContaining(source)])
    expect(t?.handles).toEqual([expect.objectContaining(target), expect.objectContaining(source)])
    expect(o?.handles).toEqual([expect.objectContaining(target)])
    expect(n?.handles).toEqual([])
    store
      .getState()
      .actions.onNodesChange([{ type: 'dimensions', id: 't', dimensions: { width: 300, height: 90 } }])
    const measured = createRfNodesSelector()(store.getState())[1]
    // From now on React Flow's own measurement of the drawn handles holds.
    expect(measured?.handles).toBeUndefined()
    expect(measured?.measured).toEqual({ width: 300, height: 90 })
  })

  it('lets React Flow draw only the nodes in view of a big flow nothing was measured of yet', () => {
    // 5,000 nodes in a grid 280 px apart; a 1,000 x 700 px canvas at zoom 1 shows about 20.
    const nodes = Array.from({ length: 5000 }, (_, k) =>
      node(`n${k}`, 'template', (k % 25) * 280, Math.floor(k / 25) * 160),
    )
    const { store } = storeWith(doc(nodes))
    const lookup = new Map<string, InternalNodeBase>()
    adoptUserNodes(createRfNodesSelector()(store.getState()), lookup, new Map(), { checkEquality: true })
    // What <ReactFlow onlyRenderVisibleElements> renders: before, every node without measured
    // handles was drawn once (all 5,000), only to be measured.
    const drawn = getNodesInside(lookup, { x: 0, y: 0, width: 1000, height: 700 }, [0, 0, 1], true)
    expect(drawn.length).toBeGreaterThan(0)
    expect(drawn.length).toBeLessThan(30)
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
