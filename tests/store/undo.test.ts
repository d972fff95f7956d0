import { describe, expect, it } from 'vitest'
import { UNDO_GROUP_WINDOW_MS } from '../../src/defaults.ts'
import { depth, doc, node, storeWith } from './helpers.ts'

describe('undo grouping', () => {
  it('makes one typing burst in one field a single undo step', () => {
    const { store, clock } = storeWith(doc([node('t', 'template', 0, 0, { template: '' })]))
    const { actions } = store.getState()
    for (const text of ['H', 'He', 'Hel', 'Hell', 'Hello']) {
      clock.t += 100
      actions.setConfigField('t', 'template', text)
    }
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(store.getState().nodes[0]?.data.config['template']).toBe('')
    actions.redo()
    expect(store.getState().nodes[0]?.data.config['template']).toBe('Hello')
  })

  it('keeps a typing burst whole when the node is re-measured between keystrokes', () => {
    const { store, clock } = storeWith(doc([node('t', 'template', 0, 0, { template: '' })]))
    const { actions } = store.getState()
    actions.setConfigField('t', 'template', 'H')
    // The node grows as its summary appears: React Flow reports new dimensions (no undo step).
    actions.onNodesChange([{ type: 'dimensions', id: 't', dimensions: { width: 260, height: 120 } }])
    for (const text of ['He', 'Hel', 'Hello']) {
      clock.t += 100
      actions.setConfigField('t', 'template', text)
    }
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(store.getState().nodes[0]?.data.config['template']).toBe('')
  })

  it('starts a new step after a pause longer than the window', () => {
    const { store, clock } = storeWith(doc([node('t', 'template', 0, 0, { template: '' })]))
    const { actions } = store.getState()
    actions.setConfigField('t', 'template', 'a')
    clock.t += UNDO_GROUP_WINDOW_MS + 1
    actions.setConfigField('t', 'template', 'ab')
    expect(depth(store)).toBe(2)
    actions.undo()
    expect(store.getState().nodes[0]?.data.config['template']).toBe('a')
  })

  it('starts a new step when typing moves to another field', () => {
    const { store, clock } = storeWith(doc([node('t', 'llm', 0, 0, { prompt: '', systemPrompt: '' })]))
    const { actions } = store.getState()
    actions.setConfigField('t', 'prompt', 'p')
    clock.t += 50
    actions.setConfigField('t', 'systemPrompt', 's')
    clock.t += 50
    actions.setConfigField('t', 'prompt', 'pp')
    expect(depth(store)).toBe(3)
  })

  it('does not merge a burst into a step that undo already reverted', () => {
    const { store, clock } = storeWith(doc([node('t', 'template', 0, 0, { template: '' })]))
    const { actions } = store.getState()
    actions.setConfigField('t', 'template', 'a')
    actions.undo()
    clock.t += 10
    actions.setConfigField('t', 'template', 'b')
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(store.getState().nodes[0]?.data.config['template']).toBe('')
  })

  it('makes a whole node drag one undo step', () => {
    const { store } = storeWith(doc([node('a', 'template', 0, 0), node('b', 'template', 300, 0)]))
    const { actions } = store.getState()
    for (let i = 1; i <= 20; i += 1) {
      actions.onNodesChange([{ type: 'position', id: 'a', position: { x: i * 5, y: i * 2 }, dragging: true }])
    }
    actions.onNodesChange([{ type: 'position', id: 'a', dragging: false }])
    expect(depth(store)).toBe(1)
    expect(store.getState().nodes[0]?.position).toEqual({ x: 100, y: 40 })
    actions.undo()
    expect(store.getState().nodes[0]?.position).toEqual({ x: 0, y: 0 })
    actions.redo()
    expect(store.getState().nodes[0]?.position).toEqual({ x: 100, y: 40 })
  })

  it('records the next edit after a drag as its own step', () => {
    const { store } = storeWith(doc([node('a', 'template', 0, 0, { template: '' })]))
    const { actions } = store.getState()
    actions.onNodesChange([{ type: 'position', id: 'a', position: { x: 5, y: 5 }, dragging: true }])
    actions.onNodesChange([{ type: 'position', id: 'a', position: { x: 9, y: 9 }, dragging: false }])
    actions.setConfigField('a', 'template', 'x')
    expect(depth(store)).toBe(2)
  })

  it('makes a note resize one undo step', () => {
    const { store } = storeWith(doc([{ ...node('n', 'note'), size: { width: 200, height: 100 } }]))
    const { actions } = store.getState()
    actions.onNodesChange([
      {
        type: 'dimensions',
        id: 'n',
        dimensions: { width: 220, height: 110 },
        resizing: true,
        setAttributes: true,
      },
    ])
    actions.onNodesChange([
      {
        type: 'dimensions',
        id: 'n',
        dimensions: { width: 260, height: 140 },
        resizing: true,
        setAttributes: true,
      },
    ])
    actions.onNodesChange([
      {
        type: 'dimensions',
        id: 'n',
        dimensions: { width: 260, height: 140 },
        resizing: false,
        setAttributes: true,
      },
    ])
    expect(store.getState().nodes[0]?.size).toEqual({ width: 260, height: 140 })
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(store.getState().nodes[0]?.size).toEqual({ width: 200, height: 100 })
  })

  it('undoes config edits, renames, layout and connections in reverse order', () => {
    const { store, clock } = storeWith(doc([node('a'), node('b', 'template', 100, 0)]))
    const { actions } = store.getState()
    actions.setLabel('a', 'First')
    clock.t += UNDO_GROUP_WINDOW_MS * 2
    actions.connect({ source: 'a', target: 'b' })
    actions.setPositions(new Map([['b', { x: 400, y: 0 }]]))
    expect(depth(store)).toBe(3)
    actions.undo()
    expect(store.getState().nodes[1]?.position.x).toBe(100)
    actions.undo()
    expect(store.getState().edges).toHaveLength(0)
    actions.undo()
    expect(store.getState().nodes[0]?.data.label).toBe('a')
    expect(store.temporal.getState().futureStates).toHaveLength(3)
  })
})
