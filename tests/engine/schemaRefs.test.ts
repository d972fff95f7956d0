import { describe, expect, it } from 'vitest'
import { missingSchemaField, preflight, schemaAt, schemaFields } from '../../src/engine/index.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { flow } from '../support/flowBuilders.ts'

const schema = {
  type: 'object',
  properties: {
    intent: { type: 'string' },
    order: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        },
      },
    },
    extra: { type: 'object', additionalProperties: true },
  },
  required: ['intent'],
}

const doc = (template: string, output: unknown) =>
  flow()
    .node('m', 'llm', output === null ? { prompt: 'x' } : { prompt: 'x', output })
    .node('t', 'template', { template })
    .edge('m', 't')
    .build()

const refProblems = (template: string, output: unknown = { schema }) =>
  preflight(doc(template, output), engineRegistry).filter((p) => p.code.startsWith('REF_'))

describe('typed references to structured output', () => {
  it('accepts fields the schema has, at any depth, and open parts of it', () => {
    expect(
      refProblems(
        '{{m.data.intent}} {{m.data.order.id}} {{m.data.order.lines[0].sku}} {{m.data.extra.anything}} {{m.attempts}}',
      ),
    ).toEqual([])
  })

  it('refuses a field the schema does not have, naming it and the fields it has', () => {
    const problems = refProblems('{{m.data.intnet}} and {{m.data.order.lines[0].price}}')
    expect(problems.map((p) => [p.code, p.severity, p.params['field']])).toEqual([
      ['REF_NOT_IN_SCHEMA', 'error', 'intnet'],
      ['REF_NOT_IN_SCHEMA', 'error', 'price'],
    ])
    expect(problems[0]?.message).toContain('"intnet"')
    expect(problems[0]?.params['fields']).toBe('intent, order, extra')
    expect(problems[1]?.params['fields']).toBe('sku')
  })

  it('only warns when the reference has a fallback', () => {
    expect(refProblems('{{m.data.nope | "none"}}').map((p) => p.severity)).toEqual(['warning'])
  })

  it('a node without a schema has no data field', () => {
    expect(refProblems('{{m.data.intent}}', null).map((p) => [p.code, p.params['field']])).toEqual([
      ['REF_UNKNOWN_FIELD', 'data'],
    ])
  })

  it('walks anyOf branches and array items for the inspector', () => {
    const either = {
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'number' } } },
      ],
    }
    expect(schemaFields(either)).toEqual(['a', 'b'])
    expect(missingSchemaField(either, ['b'])).toBeUndefined()
    expect(missingSchemaField(either, ['c'])).toMatchObject({ field: 'c', known: ['a', 'b'] })
    expect(schemaAt(schema, ['order', 'lines', 0])).toMatchObject({ properties: { sku: { type: 'string' } } })
  })
})
