import { describe, expect, it } from 'vitest'
import { z } from '../../src/zodMini.ts'
import { defineNodeType, type FlowDocument, type FlowNode } from '../../src/engine/index.ts'
import { createNodeCatalog } from '../../src/nodes/catalog.ts'
import { erase, nodeCatalog, nodeDefinitions } from '../../src/nodes/registry.ts'
import { zodParser, type NodeDefinition } from '../../src/nodes/types.ts'
import { configAfterConnect } from '../../src/nodes/wiring.ts'
import { callsModels, providersNeedingKeys, runsCode } from '../../src/app/runs/RunResources.ts'
import { defaultSettings } from '../../src/settings/schema.ts'

const shoutSchema = z.object({
  configVersion: z._default(z.literal(1), 1),
  text: z._default(z.string(), ''),
  script: z._default(z.boolean(), false),
  provider: z.optional(z.string()),
})
type ShoutConfig = z.infer<typeof shoutSchema>

/** A node type that exists only in this test: everything about it is in this one object. */
const shoutNode: NodeDefinition<ShoutConfig> = {
  type: 'shout',
  icon: '!',
  color: '#000',
  labelKey: 'test:shout',
  descriptionKey: 'test:shout',
  configVersion: 1,
  schema: shoutSchema,
  defaultConfig: () => ({ configVersion: 1, text: '', script: false }),
  fields: () => Promise.resolve([]),
  summary: (config) => config.text,
  palette: { group: 'logic', order: 5 },
  uses: (config) => ({ sandbox: config.script, provider: config.provider }),
  wiring: {
    mainOutput: () => 'loud',
    fill: (config, reference) => (config.text === '' ? { text: reference } : null),
  },
  engine: defineNodeType<ShoutConfig>({
    type: 'shout',
    parseConfig: zodParser(shoutSchema),
    ports: { inputs: [{ id: 'in' }], outputs: [{ id: 'loud', label: 'Loud' }, { id: 'soft' }] },
    outputs: () => ['loud'],
    execute: async ({ config }) => ({ output: { loud: config.text.toUpperCase() } }),
  }),
}

const catalog = createNodeCatalog([...nodeDefinitions, erase(shoutNode)])

function node(id: string, type: string, config: Record<string, unknown>): FlowNode {
  return { id, type, position: { x: 0, y: 0 }, data: { label: id, config } }
}

function flowOf(...nodes: FlowNode[]): FlowDocument {
  const at = '2026-01-01T00:00:00.000Z'
  return {
    metadata: { id: 'f', name: 'f', description: '', tags: [], createdAt: at, updatedAt: at },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges: [],
  }
}

describe('a node type declared only by its definition', () => {
  it('takes its place in the palette by group and order, after the actions and before the outputs', () => {
    const palette = catalog.palette()
    expect(palette).toContain('shout')
    expect(palette.indexOf('shout')).toBe(palette.indexOf('http') + 1)
    expect(palette.indexOf('shout')).toBeLessThan(palette.indexOf('output'))
  })

  it('keeps the app palette in its order, placeholders left out', () => {
    expect(nodeCatalog.palette()).toEqual([
      'input',
      'template',
      'knowledge',
      'llm',
      'agent',
      'code',
      'http',
      'condition',
      'merge',
      'loop',
      'subflow',
      'output',
      'note',
    ])
  })

  it('has the ports it declares, and the engine registry holds its executor', () => {
    const ports = catalog.ports(node('s', 'shout', {}))
    expect(ports.outputs.map((p) => p.id)).toEqual(['loud', 'soft'])
    expect(catalog.engine.get('shout')?.executable).toBe(true)
    expect(catalog.role('shout')).toBe('step')
  })

  it('is wired by its own main output and fill', () => {
    const input = node('in', 'input', { configVersion: 1, values: { question: '' } })
    expect(configAfterConnect(input, node('s', 'shout', { text: '' }), catalog)).toMatchObject({
      text: '{{in.question}}',
    })
    const shout = node('s', 'shout', { text: 'x' })
    expect(configAfterConnect(shout, node('t', 'template', { template: '' }), catalog)).toMatchObject({
      template: '{{s.loud}}',
    })
    expect(configAfterConnect(shout, node('t', 'shout', { text: 'typed' }), catalog)).toBeNull()
  })

  it('tells a run what it uses: the sandbox and a provider', () => {
    const quiet = flowOf(node('s', 'shout', { script: false }))
    expect(runsCode(quiet, catalog)).toBe(false)
    expect(callsModels(quiet, catalog)).toBe(false)
    const busy = flowOf(node('s', 'shout', { script: true, provider: '' }))
    expect(runsCode(busy, catalog)).toBe(true)
    expect(callsModels(busy, catalog)).toBe(true)
    // The app's own catalog does not know the type: nothing is sniffed from its config.
    expect(runsCode(busy)).toBe(false)
    expect(providersNeedingKeys(busy, defaultSettings(), catalog)).toEqual([])
  })

  it('an unknown type is a placeholder with the default ports', () => {
    expect(nodeCatalog.role('nope')).toBe('placeholder')
    expect(nodeCatalog.ports(node('x', 'nope', {})).outputs.map((p) => p.id)).toEqual(['out'])
  })
})
