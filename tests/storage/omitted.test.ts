import { describe, expect, it } from 'vitest'
import { fillOmitted, UNTITLED_FLOW_NAME } from '../../src/storage/restore/omitted.ts'
import { parseWorkflowText } from '../../src/storage/index.ts'

const handWritten = {
  format: 'wardflow.workflow',
  version: 1,
  nodes: [
    { id: 'a', type: 'input', data: { config: { values: { topic: 'tea' } } } },
    { id: 'b', type: 'template', data: { config: { template: '{{a.topic}}' } } },
    { id: 'c', type: 'template', data: { config: { template: 'side' } } },
    { id: 'd', type: 'output', data: { config: { values: { text: '{{b.text}} {{c.text}}' } } } },
  ],
  edges: [
    { source: 'a', target: 'b' },
    { source: 'b', target: 'd' },
    { source: 'c', target: 'd' },
  ],
}

describe('fillOmitted', () => {
  it('names the flow, places the nodes by depth and gives the edges ids, saying so', () => {
    const { file, notes } = fillOmitted(handWritten)
    expect(file.metadata).toEqual({ id: 'flow', name: UNTITLED_FLOW_NAME })
    const nodes = file.nodes as Array<{ id: string; position: { x: number; y: number } }>
    const at = Object.fromEntries(nodes.map((n) => [n.id, n.position]))
    // a and c start chains (column 0), b follows a, d follows b (the longest chain).
    expect(at.a?.x).toBe(0)
    expect(at.c?.x).toBe(0)
    expect(at.c?.y).toBeGreaterThan(at.a?.y ?? Infinity)
    expect(at.b?.x).toBeGreaterThan(0)
    expect(at.d?.x).toBeGreaterThan(at.b?.x ?? Infinity)
    expect((file.edges as Array<{ id: string }>).map((e) => e.id)).toEqual(['edge-1', 'edge-2', 'edge-3'])
    expect(notes).toHaveLength(3)
    expect(notes.join(' ')).toMatch(/Untitled flow.*3 connections.*4 nodes/)
    // The input is not changed.
    expect(handWritten.nodes[0]).not.toHaveProperty('position')
  })

  it('fills only what is absent: present values stay, wrong types are left for the check', () => {
    const file = {
      metadata: { name: 'Mine', id: 42 },
      nodes: [
        { id: 'a', type: 'input', position: { x: 5, y: 6 } },
        { id: 'b', type: 'input', position: 'left' },
      ],
      edges: [{ id: 'edge-1', source: 'a', target: 'b' }, { source: 'a', target: 'b' }, 'junk'],
    }
    const { file: filled, notes } = fillOmitted(file)
    expect(filled.metadata).toEqual({ name: 'Mine', id: 42 })
    expect(filled.nodes).toEqual(file.nodes)
    expect(filled.edges).toEqual([
      { id: 'edge-1', source: 'a', target: 'b' },
      { id: 'edge-2', source: 'a', target: 'b' },
      'junk',
    ])
    expect(notes).toEqual(['1 connection had no id and got one.'])
  })

  it('never reuses an edge id the file already has', () => {
    const { file } = fillOmitted({ nodes: [], edges: [{ source: 'x', target: 'y' }, { id: 'edge-1' }] })
    expect((file.edges as Array<{ id: string }>)[0]?.id).toBe('edge-1-2')
  })

  it('places nodes of a cycle without looping (the cycle is refused by the check after)', () => {
    const { file } = fillOmitted({
      nodes: [
        { id: 'a', type: 'template' },
        { id: 'b', type: 'template' },
      ],
      edges: [
        { id: 'e1', source: 'a', target: 'b' },
        { id: 'e2', source: 'b', target: 'a' },
      ],
    })
    expect((file.nodes as Array<{ position: unknown }>).every((n) => n.position !== undefined)).toBe(true)
  })
})

describe('parseWorkflowText with a hand-written file', () => {
  it('imports the smallest runnable file, with notes', () => {
    const result = parseWorkflowText(JSON.stringify(handWritten))
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.metadata.name).toBe(UNTITLED_FLOW_NAME)
    expect(result.doc.nodes).toHaveLength(4)
    expect(result.doc.edges).toHaveLength(3)
    expect(result.notes.some((n) => n.includes('no position'))).toBe(true)
  })

  it('still refuses a position of the wrong type, at its path', () => {
    const file = structuredClone(handWritten) as Record<string, unknown>
    ;(file.nodes as Array<Record<string, unknown>>)[1]!.position = 'left'
    const result = parseWorkflowText(JSON.stringify(file))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.problems.map((p) => p.path)).toContain('nodes[1].position')
  })
})
