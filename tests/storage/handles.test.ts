import { describe, expect, it } from 'vitest'
import { defineNodeType } from '../../src/engine/index.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { zodParser, type NodeDefinition } from '../../src/nodes/types.ts'
import { restoreDocument } from '../../src/storage/restore/index.ts'
import { z } from '../../src/zodMini.ts'

const forkSchema = z.object({ configVersion: z._default(z.literal(1), 1) })

/** A type with two outputs, `yes` and `no`, known only to these tests. */
const fork = {
  ...getNodeDefinition('template'),
  type: 'fork',
  schema: forkSchema,
  defaultConfig: () => ({ configVersion: 1 }),
  engine: defineNodeType({
    type: 'fork',
    parseConfig: zodParser(forkSchema),
    ports: { inputs: [{ id: 'in' }], outputs: [{ id: 'yes' }, { id: 'no' }] },
    execute: async () => ({ output: {} }),
  }),
} as unknown as NodeDefinition

const lookup = (type: string) => (type === 'fork' ? fork : getNodeDefinition(type))

function node(id: string, type: string, config: Record<string, unknown> = {}) {
  return { id, type, position: { x: 0, y: 0 }, data: { label: id, config } }
}

function doc(edges: unknown[]) {
  return {
    metadata: { id: 'f', name: 'f' },
    nodes: [node('f', 'fork'), node('t', 'template', { template: 'x' })],
    edges,
  }
}

describe('edge handles on import', () => {
  it('keeps two edges between the same pair of nodes when their handles differ', () => {
    const result = restoreDocument(
      doc([
        { id: 'e1', source: 'f', sourceHandle: 'yes', target: 't', targetHandle: 'in' },
        { id: 'e2', source: 'f', sourceHandle: 'no', target: 't', targetHandle: 'in' },
        { id: 'e3', source: 'f', sourceHandle: 'no', target: 't', targetHandle: 'in' },
      ]),
      { mode: 'strict', lookup },
    )
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.edges.map((e) => e.id)).toEqual(['e1', 'e2'])
  })

  it('refuses an edge naming a handle its node does not have, with its JSON path', () => {
    const result = restoreDocument(
      doc([
        { id: 'e1', source: 'f', sourceHandle: 'maybe', target: 't', targetHandle: 'in' },
        { id: 'e2', source: 'f', sourceHandle: 'yes', target: 't', targetHandle: 'side' },
        { id: 'e3', source: 'f', target: 't' },
      ]),
      { mode: 'strict', lookup },
    )
    expect(result).toMatchObject({
      ok: false,
      problems: [
        {
          path: 'edges[0].sourceHandle',
          key: 'issues:importProblem.handleUnknown',
          params: { handle: 'maybe' },
        },
        { path: 'edges[1].targetHandle', params: { handle: 'side', known: 'in' } },
        // No handle means `out`, which a node with cases has not: the file must say which.
        { path: 'edges[2].sourceHandle', params: { handle: 'out', known: 'yes, no' } },
      ],
    })
  })

  it('an edge naming no handle from a node without `out` says so and which handles to name', () => {
    const result = restoreDocument(doc([{ id: 'e1', source: 'f', target: 't' }]), { mode: 'strict', lookup })
    if (result.ok) throw new Error('refused expected')
    // Not 'names handle "out"': the file names none (and its edge id may be one import made up).
    expect(result.problems[0]).toMatchObject({
      path: 'edges[0].sourceHandle',
      key: 'issues:importProblem.handleMissing',
      message:
        'Edge "e1" from "f" to "t" names no sourceHandle, which means "out", and node "f" has no "out": name one of its handles (yes, no).',
    })
  })

  it('opens files without handles as before: `out` and `in`', () => {
    const result = restoreDocument(
      {
        metadata: { id: 'f', name: 'f' },
        nodes: [node('a', 'template', { template: 'x' }), node('b', 'template', { template: 'y' })],
        edges: [{ id: 'e', source: 'a', target: 'b' }],
      },
      { mode: 'strict' },
    )
    expect(result).toMatchObject({ ok: true, doc: { edges: [{ id: 'e', source: 'a', target: 'b' }] } })
  })

  it('a saved flow still opens: the wire to a handle its node lost is left out with a note', () => {
    const result = restoreDocument(
      doc([
        { id: 'e1', source: 'f', sourceHandle: 'gone', target: 't' },
        { id: 'e2', source: 'f', sourceHandle: 'yes', target: 't' },
      ]),
      { mode: 'lenient', lookup },
    )
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.edges.map((e) => e.id)).toEqual(['e2'])
    expect(result.notes.join('\n')).toMatch(/"gone".*left out/)
  })
})
