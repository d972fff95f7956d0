import { describe, expect, it } from 'vitest'
import { defineNodeType, type FlowDocument } from '../../src/engine/index.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { zodParser, type NodeDefinition } from '../../src/nodes/types.ts'
import { restoreDocument } from '../../src/storage/restore/index.ts'
import { loadFlow, saveFlow } from '../../src/storage/repositories/flows.ts'
import { exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { createRfNodesSelector } from '../../src/store/rfAdapter.ts'
import { storeWith } from '../store/helpers.ts'
import { z } from '../../src/zodMini.ts'
import { freshDb } from './support.ts'

const boxSchema = z.object({ configVersion: z._default(z.literal(1), 1) })

/** A container type known only to these tests (the real `loop` is one too). */
const box = {
  ...getNodeDefinition('template'),
  type: 'box',
  schema: boxSchema,
  defaultConfig: () => ({ configVersion: 1 }),
  engine: defineNodeType({
    type: 'box',
    container: true,
    parseConfig: zodParser(boxSchema),
    execute: async () => ({ output: {} }),
  }),
} as unknown as NodeDefinition

const lookup = (type: string) => (type === 'box' ? box : getNodeDefinition(type))

function node(id: string, type: string, parentId?: string) {
  const config = type === 'template' ? { template: 'x' } : {}
  return {
    id,
    type,
    position: { x: 10, y: 20 },
    data: { label: id, config },
    ...(parentId ? { parentId } : {}),
  }
}

function file(nodes: unknown[], edges: unknown[] = []) {
  return { metadata: { id: 'f', name: 'f' }, nodes, edges }
}

const body = file(
  [
    node('src', 'template'),
    node('each', 'box'),
    node('a', 'template', 'each'),
    node('b', 'template', 'each'),
  ],
  [
    { id: 'e1', source: 'src', target: 'each' },
    { id: 'e2', source: 'a', target: 'b' },
  ],
)

describe('loop bodies (parentId)', () => {
  it('keeps parentId through restore, export and a second import', () => {
    const first = restoreDocument(body, { mode: 'strict', lookup })
    if (!first.ok) throw new Error(JSON.stringify(first.problems))
    expect(first.doc.nodes.map((n) => n.parentId)).toEqual([undefined, undefined, 'each', 'each'])
    const again = parseWorkflowText(exportWorkflowText(first.doc), { lookup })
    if (!again.ok) throw new Error(JSON.stringify(again))
    expect(again.doc.nodes.map((n) => n.parentId)).toEqual([undefined, undefined, 'each', 'each'])
  })

  it('keeps parentId through IndexedDB', async () => {
    const restored = restoreDocument(body, { mode: 'strict', lookup })
    if (!restored.ok) throw new Error('restore')
    const db = await freshDb()
    await saveFlow(db, restored.doc)
    const loaded = await loadFlow(db, 'f', lookup)
    expect(loaded?.doc.nodes.find((n) => n.id === 'a')?.parentId).toBe('each')
  })

  it('refuses a parent that is missing or not a loop, with JSON paths', () => {
    const result = restoreDocument(
      file([node('t', 'template'), node('a', 'template', 't'), node('b', 'template', 'nowhere')]),
      { mode: 'strict', lookup },
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => [p.path, p.key])).toEqual([
      ['nodes[1].parentId', 'issues:importProblem.body.parentNotLoop'],
      ['nodes[2].parentId', 'issues:importProblem.body.parentMissing'],
    ])
  })

  it('refuses edges that cross a body instead of the loop node', () => {
    const result = restoreDocument(
      file(
        [
          node('src', 'template'),
          node('each', 'box'),
          node('a', 'template', 'each'),
          node('out', 'template'),
        ],
        [
          { id: 'in', source: 'src', target: 'a' },
          { id: 'loopToBody', source: 'each', target: 'a' },
          { id: 'outOf', source: 'a', target: 'out' },
          { id: 'fine', source: 'each', target: 'out' },
        ],
      ),
      { mode: 'strict', lookup },
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => [p.path, p.key])).toEqual([
      ['edges[0]', 'issues:importProblem.body.edgeCrosses'],
      ['edges[1]', 'issues:importProblem.body.edgeCrosses'],
      ['edges[2]', 'issues:importProblem.body.edgeCrosses'],
    ])
  })

  it('hands React Flow the parent, and parents before their children', () => {
    const restored = restoreDocument(
      file([node('a', 'template', 'each'), node('each', 'box'), node('b', 'template')]),
      { mode: 'strict', lookup },
    )
    if (!restored.ok) throw new Error('restore')
    const { store } = storeWith(restored.doc as FlowDocument)
    const rf = createRfNodesSelector()(store.getState())
    expect(rf.map((n) => [n.id, n.parentId])).toEqual([
      ['each', undefined],
      ['a', 'each'],
      ['b', undefined],
    ])
  })
})
