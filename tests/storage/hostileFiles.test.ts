/**
 * Valid but hostile workflow files: thousands of copies of one connection, more connections than
 * a canvas can hold, and a file far over the node limit that gives no positions. Each is read in
 * well under a second, with a message that names what is wrong (or a note of what was folded).
 */
import { describe, expect, it } from 'vitest'
import {
  FLOW_MAX_EDGES,
  FLOW_MAX_EDGES_RANGE,
  FLOW_MAX_NODES,
  IMPORT_MAX_FILE_BYTES,
} from '../../src/defaults.ts'
import { loadFlow, saveFlow } from '../../src/storage/repositories/flows.ts'
import { parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { freshDb } from './support.ts'

const STAMP = '2026-12-01T00:00:00.000Z'

function file(nodes: unknown[], edges: unknown[]): string {
  return JSON.stringify({
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: 'hostile',
      name: 'Hostile',
      description: '',
      tags: [],
      createdAt: STAMP,
      updatedAt: STAMP,
    },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges,
  })
}

function inputNode(id: string, placed = true): Record<string, unknown> {
  return {
    id,
    type: 'input',
    ...(placed ? { position: { x: 0, y: 0 } } : {}),
    data: { label: id, config: { configVersion: 1, values: { q: 'x' } } },
  }
}

function outputNode(id: string): Record<string, unknown> {
  return { id, type: 'output', position: { x: 300, y: 0 }, data: { label: id, config: { configVersion: 1 } } }
}

/** 20,000 copies of one edge: a valid file of about 0.9 MB. */
function duplicatesFile(copies = 20_000): string {
  const edges = Array.from({ length: copies }, (_, k) => ({
    id: `e${k}`,
    source: 'a',
    target: 'b',
    sourceHandle: 'out',
    targetHandle: 'in',
  }))
  return file([inputNode('a'), outputNode('b')], edges)
}

describe('duplicate connections', () => {
  it('20,000 copies of one connection import as one, with a note saying how many were folded', () => {
    const text = duplicatesFile()
    expect(text.length).toBeGreaterThan(800_000)
    const started = performance.now()
    const result = parseWorkflowText(text)
    expect(performance.now() - started).toBeLessThan(5_000)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.edges).toEqual([
      { id: 'e0', source: 'a', target: 'b', sourceHandle: 'out', targetHandle: 'in' },
    ])
    expect(result.notes).toContain(
      '19999 duplicate connections (the same two nodes and handles joined again) were folded into the one already there; 1 connection remains.',
    )
  })

  it('copies fold whether they name the only handles or leave them out', () => {
    // Two edges between one pair on different handles stay (tests/storage/handles.test.ts).
    const edges = [
      { id: 'x1', source: 'a', target: 'b', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'x3', source: 'a', target: 'b', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'x4', source: 'a', target: 'b' },
      { id: 'x5', source: 'a', target: 'b', sourceHandle: null, targetHandle: null },
    ]
    const result = parseWorkflowText(file([inputNode('a'), outputNode('b')], edges))
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.edges.map((e) => e.id)).toEqual(['x1'])
    expect(result.notes.some((n) => n.startsWith('3 duplicate connections'))).toBe(true)
  })

  it('a stored flow full of copies reopens folded (every start after such an import)', async () => {
    const db = await freshDb()
    const parsed = parseWorkflowText(file([inputNode('a'), outputNode('b')], []))
    if (!parsed.ok) throw new Error('fixture')
    const copies = Array.from({ length: 20_000 }, (_, k) => ({ id: `e${k}`, source: 'a', target: 'b' }))
    await saveFlow(db, { ...parsed.doc, edges: copies })
    const started = performance.now()
    const loaded = await loadFlow(db, 'hostile')
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(loaded?.doc.edges).toEqual([{ id: 'e0', source: 'a', target: 'b' }])
    expect(loaded?.notes.some((n) => n.startsWith('19999 duplicate connections'))).toBe(true)
  })
})

describe('the connection cap', () => {
  it('is a number of defaults.ts inside its range', () => {
    expect(FLOW_MAX_EDGES).toBeGreaterThanOrEqual(FLOW_MAX_EDGES_RANGE.min)
    expect(FLOW_MAX_EDGES).toBeLessThanOrEqual(FLOW_MAX_EDGES_RANGE.max)
  })

  it('a flow with more distinct connections than the cap is refused with both numbers', () => {
    // 5,000 nodes, each wired to the next five: 24,985 distinct, acyclic connections.
    const nodes = Array.from({ length: FLOW_MAX_NODES }, (_, i) => inputNode(`n${i}`))
    const edges: unknown[] = []
    for (let i = 0; i < FLOW_MAX_NODES; i += 1)
      for (let d = 1; d <= 5 && i + d < FLOW_MAX_NODES; d += 1)
        edges.push({ id: `e${i}-${d}`, source: `n${i}`, target: `n${i + d}` })
    const result = parseWorkflowText(file(nodes, edges))
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: 'edges',
          message: `The flow has ${edges.length} connections; Wardflow opens at most ${FLOW_MAX_EDGES}.`,
          key: 'issues:importProblem.tooManyEdges',
          params: { count: edges.length, max: FLOW_MAX_EDGES },
        },
      ],
    })
  })

  it('copies folded first: 20,000 copies plus distinct connections under the cap open', () => {
    const text = duplicatesFile(FLOW_MAX_EDGES + 5_000)
    const result = parseWorkflowText(text)
    expect(result.ok && result.doc.edges.length).toBe(1)
  })
})

describe('sizes are checked before anything is laid out', () => {
  it('a 150,000-node file without positions gets the size message, not a stack overflow', () => {
    // Every node feeds the last one, as a generated fan-in would; ids, types and ends only.
    const count = 150_000
    const nodes = Array.from({ length: count }, (_, i) => ({ id: `n${i}`, type: 'input' }))
    const edges = Array.from({ length: count - 1 }, (_, i) => ({ source: `n${i}`, target: `n${count - 1}` }))
    const text = file(nodes, edges)
    expect(text.length).toBeLessThan(IMPORT_MAX_FILE_BYTES)
    const result = parseWorkflowText(text)
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: 'nodes',
          message: `The flow has ${count} nodes; Wardflow opens at most ${FLOW_MAX_NODES}.`,
          key: 'issues:importProblem.tooManyNodes',
          params: { count, max: FLOW_MAX_NODES },
        },
      ],
    })
  })

  it('a large fan-in under the limit without positions is laid out', () => {
    const count = FLOW_MAX_NODES
    const nodes = Array.from({ length: count }, (_, i) => inputNode(`n${i}`, false))
    const edges = Array.from({ length: count - 1 }, (_, i) => ({
      id: `e${i}`,
      source: `n${i}`,
      target: `n${count - 1}`,
    }))
    const result = parseWorkflowText(file(nodes, edges))
    if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)))
    const last = result.doc.nodes[count - 1]
    expect(last?.position.x).toBeGreaterThan(0)
  })
})
