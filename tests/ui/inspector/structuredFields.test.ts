import { describe, expect, it } from 'vitest'
import { flow } from '../../support/flowBuilders.ts'
import {
  emptyObjectSchema,
  schemaFromExample,
  topFields,
  withField,
  withoutField,
} from '../../../src/ui/inspector/fields/schemaModel.ts'
import { matchingRefs, openReference, upstreamRefs } from '../../../src/ui/inspector/fields/upstreamFields.ts'

const schema = {
  type: 'object',
  properties: {
    intent: { type: 'string' },
    order: { type: 'object', properties: { id: { type: 'string' } } },
  },
}

describe('output schema form model', () => {
  it('makes a strict-mode schema from an example value', () => {
    expect(
      schemaFromExample({ intent: 'refund', urgency: 4, score: 0.5, ok: true, tags: ['a'], none: null }),
    ).toEqual({
      type: 'object',
      properties: {
        intent: { type: 'string' },
        urgency: { type: 'integer' },
        score: { type: 'number' },
        ok: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        none: { type: 'null' },
      },
      required: ['intent', 'urgency', 'score', 'ok', 'tags', 'none'],
      additionalProperties: false,
    })
  })

  it('adds, replaces and removes top-level fields, keeping required in step', () => {
    let s = withField(emptyObjectSchema(), {
      name: 'intent',
      type: 'enum',
      enumValues: ['a', 'b'],
      required: true,
    })
    s = withField(s, { name: 'urgency', type: 'integer', enumValues: [], required: false })
    expect(s).toMatchObject({
      properties: { intent: { type: 'string', enum: ['a', 'b'] }, urgency: { type: 'integer' } },
      required: ['intent'],
    })
    expect(topFields(s).map((f) => [f.name, f.type, f.required])).toEqual([
      ['intent', 'enum', true],
      ['urgency', 'integer', false],
    ])
    s = withoutField(s, 'intent')
    expect(s).toMatchObject({ properties: { urgency: { type: 'integer' } }, required: [] })
  })
})

describe('upstream references for pickers and autocomplete', () => {
  const doc = flow()
    .node('m', 'llm', { prompt: 'x', output: { schema } })
    .node('h', 'code', { code: 'return 1' })
    .node('c', 'condition', {})
    .edge('m', 'c')
    .edge('h', 'c')
    .build()

  it('offers a structured output’s schema fields, and a last run’s values where no schema says', () => {
    const last = (id: string) => (id === 'h' ? { result: { total: 3, items: [{ sku: 'x' }] } } : undefined)
    const groups = upstreamRefs('c', doc.nodes, doc.edges, last)
    const m = groups.find((g) => g.nodeId === 'm')?.refs ?? []
    expect(m).toEqual(
      expect.arrayContaining(['{{m.data}}', '{{m.data.intent}}', '{{m.data.order}}', '{{m.data.order.id}}']),
    )
    const h = groups.find((g) => g.nodeId === 'h')?.refs ?? []
    expect(h).toEqual(
      expect.arrayContaining(['{{h.result.total}}', '{{h.result.items[0]}}', '{{h.result.items[0].sku}}']),
    )
  })

  it('finds the reference being typed and the matches for it', () => {
    expect(openReference('Hi {{m.da', 9)).toEqual({ start: 3, typed: 'm.da' })
    expect(openReference('Hi {{m.data}} x', 15)).toBeUndefined()
    const groups = upstreamRefs('c', doc.nodes, doc.edges)
    expect(matchingRefs(groups, 'm.data.o', 5)).toEqual(['{{m.data.order}}', '{{m.data.order.id}}'])
  })
})
