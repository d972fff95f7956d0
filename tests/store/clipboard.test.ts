import { describe, expect, it } from 'vitest'
import { PASTE_OFFSET_PX } from '../../src/defaults.ts'
import { CLIPBOARD_FORMAT, parseClipboard, serializeClipboard } from '../../src/store/clipboard.ts'
import { doc, node, storeWith } from './helpers.ts'

const source = () =>
  doc(
    [
      node('input_1', 'input', 0, 0, { values: { q: 'hi' } }),
      node('llm_1', 'llm', 200, 0, { prompt: 'Answer {{input_1.q}} and {{ other_1.x }}' }),
      node('agent_1', 'agent', 400, 0, { tools: [{ name: 't', kind: 'node', nodeId: 'llm_1' }] }),
      node('output_1', 'output', 600, 0),
    ],
    [
      { id: 'e1', source: 'input_1', target: 'llm_1', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'e2', source: 'llm_1', target: 'agent_1' },
      { id: 'e3', source: 'agent_1', target: 'output_1' },
    ],
  )

describe('clipboard', () => {
  it('copies the selected nodes and only the edges between them', () => {
    const d = source()
    const text = serializeClipboard(d.nodes, d.edges, new Set(['input_1', 'llm_1']))
    const payload = parseClipboard(text ?? '')
    expect(payload?.format).toBe(CLIPBOARD_FORMAT)
    expect(payload?.nodes.map((n) => n.id)).toEqual(['input_1', 'llm_1'])
    expect(payload?.edges.map((e) => e.id)).toEqual(['e1'])
  })

  it('copies nothing when nothing is selected', () => {
    const d = source()
    expect(serializeClipboard(d.nodes, d.edges, new Set())).toBeNull()
  })

  it('ignores text that is not a Wardflow payload', () => {
    expect(parseClipboard('hello')).toBeNull()
    expect(parseClipboard('{"format":"wardflow.clipboard"')).toBeNull()
    expect(
      parseClipboard(JSON.stringify({ format: CLIPBOARD_FORMAT, version: 2, nodes: [], edges: [] })),
    ).toBeNull()
    expect(
      parseClipboard(
        JSON.stringify({ format: CLIPBOARD_FORMAT, version: 1, nodes: [{ id: 'x' }], edges: [] }),
      ),
    ).toBeNull()
  })

  it('pastes into another flow with fresh ids, internal edges kept, external dropped, and the copies selected', () => {
    const d = source()
    const text = serializeClipboard(d.nodes, d.edges, new Set(['llm_1', 'agent_1', 'output_1'])) ?? ''
    // The target flow already uses some of the same ids.
    const { store } = storeWith(doc([node('llm_1', 'llm'), node('agent_1', 'agent')]))
    const payload = parseClipboard(text)
    if (!payload) throw new Error('payload expected')
    const offset = { x: PASTE_OFFSET_PX, y: PASTE_OFFSET_PX }
    const ids = store.getState().actions.insertCopies(payload.nodes, payload.edges, offset)
    expect(ids).toEqual(['llm_2', 'agent_2', 'output_1'])
    const s = store.getState()
    expect(new Set(s.nodes.map((n) => n.id)).size).toBe(s.nodes.length)
    expect(s.edges.map((e) => [e.source, e.target])).toEqual([
      ['llm_2', 'agent_2'],
      ['agent_2', 'output_1'],
    ])
    const llm = s.nodes.find((n) => n.id === 'llm_2')
    expect(llm?.position).toEqual({ x: 200 + PASTE_OFFSET_PX, y: PASTE_OFFSET_PX })
    // input_1 was not copied: its reference stays as it was (preflight will flag it).
    expect(llm?.data.config['prompt']).toBe('Answer {{input_1.q}} and {{ other_1.x }}')
    const agent = s.nodes.find((n) => n.id === 'agent_2')
    expect(agent?.data.config['tools']).toEqual([{ name: 't', kind: 'node', nodeId: 'llm_2' }])
    expect([...s.selectedNodeIds]).toEqual(ids)
  })

  it('rewrites references between pasted nodes, keeping spacing and fallbacks', () => {
    const d = doc([
      node('a', 'input'),
      node('b', 'template', 0, 0, { template: '{{ a.x }} {{a.y | "none"}} {{a}} {{ab.c}}' }),
    ])
    const text = serializeClipboard(d.nodes, d.edges, new Set(['a', 'b'])) ?? ''
    const { store } = storeWith(doc([node('a', 'input')]))
    const payload = parseClipboard(text)
    if (!payload) throw new Error('payload expected')
    store.getState().actions.insertCopies(payload.nodes, payload.edges, { x: 0, y: 0 })
    const b = store.getState().nodes.find((n) => n.type === 'template')
    expect(b?.data.config['template']).toBe('{{ input_1.x }} {{input_1.y | "none"}} {{input_1}} {{ab.c}}')
  })

  it('pasting is one undo step', () => {
    const d = source()
    const payload = parseClipboard(serializeClipboard(d.nodes, d.edges, new Set(['input_1', 'llm_1'])) ?? '')
    const { store } = storeWith(doc())
    store.getState().actions.insertCopies(payload?.nodes ?? [], payload?.edges ?? [], { x: 0, y: 0 })
    expect(store.getState().nodes).toHaveLength(2)
    store.getState().actions.undo()
    expect(store.getState().nodes).toHaveLength(0)
    expect(store.getState().edges).toHaveLength(0)
  })
})
