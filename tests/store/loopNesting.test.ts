import { describe, expect, it } from 'vitest'
import type { FlowNode } from '../../src/engine/index.ts'
import { LOOP_BODY_PADDING_PX, NODE_HEIGHT_PX, NODE_WIDTH_PX } from '../../src/defaults.ts'
import { doc, node, storeWith } from './helpers.ts'

function loop(id = 'each', x = 100, y = 100): FlowNode {
  return { ...node(id, 'loop', x, y, { items: '[1]' }), size: { width: 560, height: 280 } }
}

const byId = (nodes: readonly FlowNode[], id: string) => nodes.find((n) => n.id === id)

describe('dragging nodes into and out of a loop', () => {
  it('joins the body on a drop inside its box, positions relative; leaves it when dragged out', () => {
    const { store } = storeWith(
      doc(
        [
          loop(),
          node('a', 'template', 900, 100),
          node('b', 'template', 900, 300),
          node('src', 'template', 0, 600),
        ],
        [
          { id: 'e1', source: 'src', target: 'a' },
          { id: 'e2', source: 'a', target: 'b' },
        ],
      ),
    )
    const { actions } = store.getState()
    actions.setPositions(
      new Map([
        ['a', { x: 120, y: 160 }],
        ['b', { x: 400, y: 160 }],
      ]),
    )
    actions.dropNodes(['a', 'b'])
    let nodes = store.getState().nodes
    expect(byId(nodes, 'a')).toMatchObject({ parentId: 'each', position: { x: 20, y: 60 } })
    expect(byId(nodes, 'b')).toMatchObject({ parentId: 'each', position: { x: 300, y: 60 } })
    // The edge from outside into the body is gone; the one inside stays.
    expect(store.getState().edges.map((e) => e.id)).toEqual(['e2'])
    // The loop grew to hold `b` (300 + its width + padding).
    expect(byId(nodes, 'each')?.size?.width).toBe(300 + NODE_WIDTH_PX + LOOP_BODY_PADDING_PX)

    // Dragging the loop moves its body with it: body positions stay relative.
    actions.setPositions(new Map([['each', { x: 200, y: 100 }]]))
    actions.dropNodes(['each'])
    expect(byId(store.getState().nodes, 'a')?.position).toEqual({ x: 20, y: 60 })

    // Out: `a` dragged to the canvas far away leaves the body, at its canvas position.
    actions.setPositions(new Map([['a', { x: 2000, y: 2000 }]]))
    actions.dropNodes(['a'])
    nodes = store.getState().nodes
    expect(byId(nodes, 'a')?.parentId).toBeUndefined()
    expect(byId(nodes, 'a')?.position).toEqual({ x: 2200, y: 2100 })
    expect(store.getState().edges).toEqual([])
  })

  it('grows the loop when a body node is dragged past its edge', () => {
    const { store } = storeWith(doc([loop(), { ...node('a', 'template', 20, 60), parentId: 'each' }]))
    store.getState().actions.setPositions(new Map([['a', { x: 20, y: 250 }]]))
    store.getState().actions.dropNodes(['a'])
    // Its centre (y 250 + 28) is still inside the 280-high box: it stays, and the box grows.
    const nodes = store.getState().nodes
    expect(byId(nodes, 'a')?.parentId).toBe('each')
    expect(byId(nodes, 'each')?.size?.height).toBe(250 + NODE_HEIGHT_PX + LOOP_BODY_PADDING_PX)
  })

  it('removes the body with its loop', () => {
    const { store } = storeWith(
      doc([loop(), { ...node('a', 'template', 20, 60), parentId: 'each' }, node('c')]),
    )
    store.getState().actions.removeNodes(['each'])
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['c'])
  })

  it('nests a loop dragged into another: it moves with it, the outer grows, dragging it out un-nests', () => {
    const { store } = storeWith(
      doc([
        loop('outer', 0, 0),
        loop('inner', 1000, 0),
        { ...node('a', 'template', 20, 60), parentId: 'inner' },
      ]),
    )
    const { actions } = store.getState()
    // The inner loop's centre (60 + 280, 40 + 140) falls inside the outer's box.
    actions.setPositions(new Map([['inner', { x: 60, y: 40 }]]))
    actions.dropNodes(['inner'])
    let nodes = store.getState().nodes
    expect(byId(nodes, 'inner')).toMatchObject({ parentId: 'outer', position: { x: 60, y: 40 } })
    // Its own body comes along, still relative to it.
    expect(byId(nodes, 'a')).toMatchObject({ parentId: 'inner', position: { x: 20, y: 60 } })
    // The outer loop grew to hold the inner one and its padding.
    expect(byId(nodes, 'outer')?.size).toEqual({
      width: 60 + 560 + LOOP_BODY_PADDING_PX,
      height: 40 + 280 + LOOP_BODY_PADDING_PX,
    })

    // Moving the outer loop moves both: positions inside stay relative.
    actions.setPositions(new Map([['outer', { x: 300, y: 300 }]]))
    actions.dropNodes(['outer'])
    nodes = store.getState().nodes
    expect(byId(nodes, 'inner')).toMatchObject({ parentId: 'outer', position: { x: 60, y: 40 } })
    expect(byId(nodes, 'a')).toMatchObject({ parentId: 'inner', position: { x: 20, y: 60 } })

    // Dragged out onto the canvas, the inner loop leaves the outer at its canvas position.
    actions.setPositions(new Map([['inner', { x: 2000, y: 0 }]]))
    actions.dropNodes(['inner'])
    nodes = store.getState().nodes
    expect(byId(nodes, 'inner')?.parentId).toBeUndefined()
    expect(byId(nodes, 'inner')?.position).toEqual({ x: 2300, y: 300 })
    expect(byId(nodes, 'a')?.parentId).toBe('inner')
  })

  it('drops a node into the innermost loop under it', () => {
    const { store } = storeWith(
      doc([
        { ...loop('outer', 0, 0), size: { width: 900, height: 500 } },
        { ...loop('inner', 100, 100), parentId: 'outer' },
        node('b', 'template', 2000, 2000),
      ]),
    )
    // b's centre lands inside inner (canvas 100..660 x 100..380), which is inside outer.
    store.getState().actions.setPositions(new Map([['b', { x: 200, y: 200 }]]))
    store.getState().actions.dropNodes(['b'])
    expect(byId(store.getState().nodes, 'b')).toMatchObject({
      parentId: 'inner',
      position: { x: 100, y: 100 },
    })
  })

  it('never nests a loop into its own body', () => {
    const { store } = storeWith(
      doc([
        { ...loop('outer', 0, 0), size: { width: 900, height: 500 } },
        { ...loop('inner', 100, 100), parentId: 'outer' },
      ]),
    )
    const before = store.getState().nodes
    // The outer loop's centre now lies over its own inner loop: it stays on the canvas.
    store.getState().actions.setPositions(new Map([['outer', { x: -50, y: 0 }]]))
    store.getState().actions.dropNodes(['outer'])
    const nodes = store.getState().nodes
    expect(byId(nodes, 'outer')?.parentId).toBeUndefined()
    expect(byId(nodes, 'inner')?.parentId).toBe('outer')
    expect(before).toHaveLength(nodes.length)
  })
})
