import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  exportWorkflow,
  migrateWorkflowFile,
  parseWorkflowText,
  WORKFLOW_FILE_VERSION,
} from '../../src/storage/workflowFile.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (name: string) => readFile(resolve(ROOT, 'tests/fixtures/cli', name), 'utf8')

function parsed(text: string) {
  const result = parseWorkflowText(text)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result
}

describe('workflow file version 2', () => {
  it('migrates a version 1 file to version 2 keeping every field as it was', async () => {
    const v1 = JSON.parse(await read('hello.wardflow.json')) as Record<string, unknown>
    expect(v1['version']).toBe(1)
    const migrated = migrateWorkflowFile(v1)
    expect(migrated).toEqual({ ...v1, version: 2, subflows: [] })
    expect(WORKFLOW_FILE_VERSION).toBe(2)
  })

  it('imports a version 1 file unchanged: the same flow as the same file written as version 2', async () => {
    const text = await read('hello.wardflow.json')
    const fromV1 = parsed(text)
    const asV2 = parsed(JSON.stringify({ ...JSON.parse(text), version: 2 }))
    expect(fromV1.doc).toEqual(asV2.doc)
    expect(fromV1.subflows).toEqual([])
    // Nothing of the original is lost on the way: every node, config, label and edge is there.
    // (Config fields the file left out take their defaults, as they always did.)
    const original = JSON.parse(text) as { metadata: unknown; nodes: unknown[]; edges: unknown[] }
    expect(fromV1.doc.metadata).toEqual(original.metadata)
    expect(fromV1.doc.nodes).toMatchObject(original.nodes)
    expect(fromV1.doc.edges).toEqual(original.edges)
    // Exported again, it is a version 2 file that reads back as the same flow.
    const again = parsed(exportWorkflow(fromV1.doc).text)
    expect(JSON.parse(exportWorkflow(fromV1.doc).text)).toMatchObject({ version: 2 })
    expect(again.doc).toEqual(fromV1.doc)
  })

  it('carries sub-flows through export and import unchanged', async () => {
    const first = parsed(await read('subflow.wardflow.json'))
    expect(first.subflows.map((f) => f.metadata.id)).toEqual(['shout', 'echo'])
    const file = exportWorkflow(first.doc, first.subflows)
    const json = JSON.parse(file.text) as { version: number; subflows: Array<{ metadata: { id: string } }> }
    expect(json.version).toBe(2)
    expect(json.subflows.map((f) => f.metadata.id)).toEqual(['shout', 'echo'])
    const second = parsed(file.text)
    expect(second.doc).toEqual(first.doc)
    expect(second.subflows).toEqual(first.subflows)
  })

  it('writes no "subflows" for a flow that calls none', async () => {
    const { doc } = parsed(await read('hello.wardflow.json'))
    expect(JSON.parse(exportWorkflow(doc).text)).not.toHaveProperty('subflows')
  })

  it('empties secrets inside carried sub-flows too, naming their path', async () => {
    const first = parsed(await read('subflow.wardflow.json'))
    const sub = structuredClone(first.subflows[0])
    if (!sub) throw new Error('no sub-flow')
    sub.nodes.push({
      id: 'h',
      type: 'http',
      position: { x: 0, y: 0 },
      data: {
        label: 'h',
        config: {
          url: 'https://x.test',
          headers: [{ key: 'Authorization', value: 'Bearer sk-abcdefghijklmnop' }],
        },
      },
    })
    const file = exportWorkflow(first.doc, [sub])
    expect(file.text).not.toContain('sk-abcdefghijklmnop')
    expect(file.redacted).toEqual(['subflows[0].nodes[3].data.config.headers[0].value'])
  })

  it('refuses a carried sub-flow without an id, or with a broken node, at its JSON path', async () => {
    const file = JSON.parse(await read('subflow.wardflow.json')) as {
      subflows: Array<{
        metadata: Record<string, unknown>
        nodes: Array<{ data: { config: Record<string, unknown> } }>
      }>
    }
    const noId = structuredClone(file)
    delete noId.subflows[0]?.metadata['id']
    const a = parseWorkflowText(JSON.stringify(noId))
    expect(a.ok ? [] : a.problems.map((p) => p.path)).toEqual(['subflows[0].metadata.id'])
    const broken = structuredClone(file)
    const node = broken.subflows[1]?.nodes[0]
    if (node) node.data.config['values'] = 'not a record'
    const b = parseWorkflowText(JSON.stringify(broken))
    expect(b.ok).toBe(false)
    expect(b.ok ? [] : b.problems.map((p) => p.path)).toEqual(['subflows[1].nodes[0].data.config.values'])
  })
})
