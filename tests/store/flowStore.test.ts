import { describe, expect, it } from 'vitest'
import { depth, doc, node, storeWith } from './helpers.ts'

describe('flow store actions', () => {
  it('adds a node with a readable id and selects only it', () => {
    const { store } = storeWith(doc([node('llm_1', 'llm')]))
    const id = store
      .getState()
      .actions.addNode({ type: 'llm', position: { x: 5, y: 6 }, label: 'LLM', config: { prompt: '' } })
    expect(id).toBe('llm_2')
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['llm_1', 'llm_2'])
    expect([...store.getState().selectedNodeIds]).toEqual(['llm_2'])
  })

  it('loading a flow clears the undo history', () => {
    const { store } = storeWith(doc())
    store.getState().actions.addNode({ type: 'code', position: { x: 0, y: 0 }, label: 'Code', config: {} })
    expect(depth(store)).toBe(1)
    store.getState().actions.load(doc([node('a')]))
    expect(depth(store)).toBe(0)
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['a'])
  })

  it('removes the selection with its attached edges in one undo step', () => {
    const { store } = storeWith(
      doc(
        [node('a'), node('b'), node('c')],
        [
          { id: 'e1', source: 'a', target: 'b' },
          { id: 'e2', source: 'b', target: 'c' },
        ],
      ),
    )
    const { actions } = store.getState()
    actions.select(['b'])
    actions.removeSelection()
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['a', 'c'])
    expect(store.getState().edges).toEqual([])
    expect(store.getState().selectedNodeIds.size).toBe(0)
    actions.undo()
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['a', 'b', 'c'])
    expect(store.getState().edges.map((e) => e.id)).toEqual(['e1', 'e2'])
  })

  it('duplicates selected nodes with fresh ids, keeps the edges between them and selects the copies', () => {
    const { store } = storeWith(
      doc(
        [
          node('input_1', 'input'),
          node('llm_1', 'llm', 100, 0, { prompt: 'Hi {{input_1.q}}' }),
          node('out_1', 'output'),
        ],
        [
          { id: 'e1', source: 'input_1', target: 'llm_1' },
          { id: 'e2', source: 'llm_1', target: 'out_1' },
        ],
      ),
    )
    const { actions } = store.getState()
    actions.select(['input_1', 'llm_1'])
    const ids = actions.duplicateSelection({ x: 10, y: 20 })
    expect(ids).toEqual(['input_2', 'llm_2'])
    const s = store.getState()
    const copy = s.nodes.find((n) => n.id === 'llm_2')
    expect(copy?.position).toEqual({ x: 110, y: 20 })
    expect(copy?.data.config['prompt']).toBe('Hi {{input_2.q}}')
    expect(s.edges.filter((e) => ids.includes(e.source) || ids.includes(e.target))).toEqual([
      expect.objectContaining({ source: 'input_2', target: 'llm_2' }),
    ])
    expect([...s.selectedNodeIds]).toEqual(ids)
  })

  it('keeps selection, viewport and measured sizes out of the undo history', () => {
    const { store } = storeWith(doc([node('a')]))
    const { actions } = store.getState()
    actions.select(['a'])
    actions.setViewport({ x: 10, y: 10, zoom: 2 })
    actions.onNodesChange([{ type: 'dimensions', id: 'a', dimensions: { width: 200, height: 80 } }])
    actions.onNodesChange([{ type: 'select', id: 'a', selected: false }])
    expect(depth(store)).toBe(0)
    expect(store.getState().measured['a']).toEqual({ width: 200, height: 80 })
  })
})

describe('connections', () => {
  const chain = () =>
    storeWith(
      doc(
        [node('a'), node('b'), node('c')],
        [
          { id: 'e1', source: 'a', target: 'b' },
          { id: 'e2', source: 'b', target: 'c' },
        ],
      ),
    ).store

  it('refuses a self-loop', () => {
    const store = chain()
    expect(store.getState().actions.connect({ source: 'a', target: 'a' })).toEqual({
      ok: false,
      reason: 'SELF_LOOP',
    })
    expect(store.getState().edges).toHaveLength(2)
  })

  it('refuses an edge that closes a cycle, directly or through other nodes', () => {
    const store = chain()
    expect(store.getState().actions.connect({ source: 'c', target: 'a' })).toEqual({
      ok: false,
      reason: 'CYCLE',
    })
    expect(store.getState().actions.connect({ source: 'b', target: 'a' })).toEqual({
      ok: false,
      reason: 'CYCLE',
    })
    expect(store.getState().edges).toHaveLength(2)
    expect(depth(store)).toBe(0)
  })

  it('allows a second edge between the same two nodes when its handles differ', () => {
    const store = chain()
    const { actions } = store.getState()
    expect(actions.connect({ source: 'a', sourceHandle: 'out', target: 'b', targetHandle: 'in' })).toEqual({
      ok: false,
      reason: 'DUPLICATE',
    })
    const result = actions.connect({ source: 'a', sourceHandle: 'case2', target: 'b', targetHandle: 'in' })
    expect(result.ok).toBe(true)
    expect(store.getState().edges.filter((e) => e.source === 'a' && e.target === 'b')).toHaveLength(2)
    expect(actions.connect({ source: 'a', sourceHandle: 'case2', target: 'b' })).toEqual({
      ok: false,
      reason: 'DUPLICATE',
    })
  })

  it('refuses a duplicate edge and accepts a new forward edge as one undo step', () => {
    const store = chain()
    const { actions } = store.getState()
    expect(actions.connect({ source: 'a', target: 'b' })).toEqual({ ok: false, reason: 'DUPLICATE' })
    const result = actions.connect({ source: 'a', target: 'c', sourceHandle: 'out', targetHandle: 'in' })
    expect(result.ok).toBe(true)
    expect(store.getState().edges).toHaveLength(3)
    expect(store.getState().edges[2]).toMatchObject({
      source: 'a',
      target: 'c',
      sourceHandle: 'out',
      targetHandle: 'in',
    })
    actions.undo()
    expect(store.getState().edges).toHaveLength(2)
  })
})

describe('connections fill in references', () => {
  it('an LLM with an empty prompt reads the input it is wired to, in the same undo step', () => {
    const input = node('in', 'input', 0, 0, { values: { question: '' } })
    const llm = node('l', 'llm', 200, 0, { prompt: '', model: '' })
    const { store } = storeWith(doc([input, llm]))
    const { actions } = store.getState()
    expect(actions.connect({ source: 'in', target: 'l' }).ok).toBe(true)
    expect(store.getState().nodes[1]?.data.config['prompt']).toBe('{{in.question}}')
    expect(depth(store)).toBe(1)
    actions.undo()
    expect(store.getState().edges).toHaveLength(0)
    expect(store.getState().nodes[1]?.data.config['prompt']).toBe('')
  })

  it('keeps a prompt the person wrote', () => {
    const input = node('in', 'input', 0, 0, { values: { question: '' } })
    const llm = node('l', 'llm', 200, 0, { prompt: 'Mine', model: '' })
    const { store } = storeWith(doc([input, llm]))
    store.getState().actions.connect({ source: 'in', target: 'l' })
    expect(store.getState().nodes[1]?.data.config['prompt']).toBe('Mine')
  })
})
