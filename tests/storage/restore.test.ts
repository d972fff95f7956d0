import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import type { NodeDefinition } from '../../src/nodes/types.ts'
import {
  CURRENT_DOC_SCHEMA_VERSION,
  DOC_MIGRATIONS,
  inferDocSchemaVersion,
  migrateDocument,
  restoreConfig,
  restoreDocument,
} from '../../src/storage/restore/index.ts'
import { WardflowDb, openWardflowDb } from '../../src/storage/db.ts'
import { loadFlow } from '../../src/storage/repositories/flows.ts'
import { config, track } from './support.ts'

const v1Doc: unknown = JSON.parse(
  readFileSync(new URL('../fixtures/workflows/stored-doc-v1.json', import.meta.url), 'utf8'),
)

describe('document migrations', () => {
  it('are numbered, named and contiguous up to the current version', () => {
    DOC_MIGRATIONS.forEach((m, i) => {
      expect(m.from).toBe(i + 1)
      expect(m.to).toBe(m.from + 1)
      expect(m.name).toMatch(/^[a-z0-9-]+$/)
    })
    expect(DOC_MIGRATIONS.at(-1)?.to).toBe(CURRENT_DOC_SCHEMA_VERSION)
  })

  it('turn the prototype (v1) document into the current shape, node by node', () => {
    expect(inferDocSchemaVersion(v1Doc)).toBe(1)
    const result = restoreDocument(v1Doc, { mode: 'lenient', schemaVersion: 1 })
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.migrated).toEqual([
      '1->2 nest-node-label-and-config-in-data',
      '2->3 metadata-block-edge-ids-viewport',
    ])
    expect(result.doc.metadata).toEqual({
      id: 'legacy_flow',
      name: 'Legacy summariser',
      description: '',
      tags: [],
      createdAt: '2025-12-01T09:00:00.000Z',
      updatedAt: '2025-12-02T10:30:00.000Z',
    })
    expect(result.doc.viewport).toEqual({ x: 0, y: 0, zoom: 1 })
    const [input, template, llm, oldSwitch, output] = result.doc.nodes
    expect(input).toEqual({
      id: 'in_1',
      type: 'input',
      position: { x: 0, y: 0 },
      data: {
        label: 'Article',
        config: config('input', { values: { article: 'Otters hold hands while sleeping.' } }),
      },
    })
    expect(template?.data).toEqual({
      label: 'Prompt',
      config: config('template', { template: 'Summarise: {{in_1.article}}' }),
    })
    expect(llm?.data.config).toEqual(
      config('llm', { model: 'gpt-4o-mini', prompt: '{{tpl_1.text}}', temperature: 0.3 }),
    )
    expect(oldSwitch).toMatchObject({
      type: 'unsupported',
      position: { x: 720, y: 120 },
      data: { label: 'Prototype switch', config: { originalType: 'switch' } },
    })
    expect(output?.data.config).toEqual(config('output', { values: { summary: '{{llm_1.response}}' } }))
    expect(result.doc.edges).toEqual([
      { id: 'e1_in_1_tpl_1', source: 'in_1', target: 'tpl_1' },
      { id: 'e2_tpl_1_llm_1', source: 'tpl_1', target: 'llm_1', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'keep_me', source: 'llm_1', target: 'out_1' },
      { id: 'e4_llm_1_old_switch', source: 'llm_1', target: 'old_switch' },
    ])
  })

  it('migrate a row stored by DB v1 without a schemaVersion when it is loaded', async () => {
    const name = `t-${crypto.randomUUID()}`
    const v1 = new WardflowDb(name, { upToVersion: 1 })
    await v1.open()
    await v1.table('flows').put({
      id: 'legacy_flow',
      name: 'Legacy summariser',
      updatedAt: '2025-12-02T10:30:00.000Z',
      doc: v1Doc,
    })
    v1.close()
    const db = track(await openWardflowDb(name))
    const loaded = await loadFlow(db, 'legacy_flow')
    expect(loaded?.migrated).toHaveLength(2)
    expect(loaded?.doc.nodes.map((n) => n.type)).toEqual([
      'input',
      'template',
      'llm',
      'unsupported',
      'output',
    ])
    // Nothing is written back until the app saves: the stored row is still the old shape.
    expect((await db.flows.get('legacy_flow'))?.doc).toEqual(v1Doc)
  })

  it('refuse versions they do not know', () => {
    expect(migrateDocument({}, 0)).toMatchObject({ ok: false })
    expect(migrateDocument({}, CURRENT_DOC_SCHEMA_VERSION + 1)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/newer Wardflow/),
    })
    expect(migrateDocument('text', 1)).toMatchObject({ ok: false })
  })
})

/** A node type at config version 3 whose v1 had `text`, v2 `body`, v3 `content` + `format`. */
const evolving: NodeDefinition = {
  ...(getNodeDefinition('template') as NodeDefinition),
  type: 'evolving',
  configVersion: 3,
  schema: z.object({
    configVersion: z.literal(3),
    content: z.string(),
    format: z.enum(['plain', 'markdown']),
  }),
  migrate(raw, from) {
    let out = { ...raw }
    if (from < 2) {
      const { text, ...rest } = out
      out = { ...rest, body: text }
    }
    if (from < 3) {
      const { body, ...rest } = out
      if (body === 'boom') throw new Error('cannot convert boom')
      out = { ...rest, content: body, format: 'plain' }
    }
    return out
  },
}

describe('per-node config migrations', () => {
  it('bring every older configVersion up to the current one', () => {
    expect(restoreConfig(evolving, { text: 'hi' })).toEqual({
      ok: true,
      config: { configVersion: 3, content: 'hi', format: 'plain' },
      migratedFrom: 1,
    })
    expect(restoreConfig(evolving, { configVersion: 2, body: 'yo' })).toEqual({
      ok: true,
      config: { configVersion: 3, content: 'yo', format: 'plain' },
      migratedFrom: 2,
    })
    expect(restoreConfig(evolving, { configVersion: 3, content: 'x', format: 'markdown' })).toEqual({
      ok: true,
      config: { configVersion: 3, content: 'x', format: 'markdown' },
    })
  })

  it('report newer, malformed and failing versions at configVersion or the config root', () => {
    expect(restoreConfig(evolving, { configVersion: 4 })).toMatchObject({
      ok: false,
      issues: [{ path: 'configVersion', message: expect.stringMatching(/newer/) }],
    })
    expect(restoreConfig(evolving, { configVersion: 'two' })).toMatchObject({
      ok: false,
      issues: [{ path: 'configVersion' }],
    })
    expect(restoreConfig(evolving, { configVersion: 2, body: 'boom' })).toMatchObject({
      ok: false,
      issues: [{ path: '', message: expect.stringMatching(/cannot convert boom/) }],
    })
  })

  it('run inside document restore, with a note per migrated node', () => {
    const lookup = (type: string): NodeDefinition | undefined =>
      type === 'evolving' ? evolving : getNodeDefinition(type)
    const doc = {
      metadata: { id: 'f', name: 'f' },
      nodes: [
        {
          id: 'n1',
          type: 'evolving',
          position: { x: 0, y: 0 },
          data: { label: 'N', config: { text: 'old' } },
        },
      ],
      edges: [],
    }
    const result = restoreDocument(doc, { mode: 'strict', lookup })
    expect(result).toMatchObject({ ok: true, notes: ['Node "n1": settings updated from version 1 to 3.'] })
    if (result.ok)
      expect(result.doc.nodes[0]?.data.config).toEqual({ configVersion: 3, content: 'old', format: 'plain' })
  })

  it('turn a placeholder back into its node once this build knows the type', () => {
    const original = {
      id: 'n1',
      type: 'template',
      position: { x: 1, y: 1 },
      data: { label: 'T', config: { template: 'x' } },
    }
    const doc = {
      metadata: { id: 'f', name: 'f' },
      nodes: [
        {
          id: 'n1',
          type: 'unsupported',
          position: { x: 9, y: 9 },
          data: { label: 'T', config: { originalType: 'template', original } },
        },
      ],
      edges: [],
    }
    const result = restoreDocument(doc, { mode: 'lenient' })
    expect(result).toMatchObject({ ok: true })
    if (result.ok)
      expect(result.doc.nodes[0]).toEqual({
        id: 'n1',
        type: 'template',
        position: { x: 9, y: 9 },
        data: { label: 'T', config: config('template', { template: 'x' }) },
      })
  })
})
