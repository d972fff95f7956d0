import { describe, expect, it } from 'vitest'
import { AGENT_SCHEMA_MAX_PROBLEMS } from '../../src/defaults.ts'
import { createSchemaValidator } from '../../src/platform/schemaValidator.ts'

// The Agent's tool-argument checks, as the tool runner asks them (lenient, root `arguments`).
// These were the hand-written checker's tests; the library behind the port keeps them.
const validator = createSchemaValidator()
const v = (value: unknown, schema: unknown): Promise<string[]> =>
  validator.validate({
    value,
    schema,
    root: 'arguments',
    maxProblems: AGENT_SCHEMA_MAX_PROBLEMS,
    lenient: true,
  })

describe('tool-argument checks through the schema validator', async () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2, maxLength: 20, pattern: '^[A-Z]' },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { enum: ['c', 'f'] },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      at: { type: ['string', 'null'] },
      nested: { type: 'object', properties: { ok: { const: true } }, required: ['ok'] },
    },
    required: ['city'],
    additionalProperties: false,
  }

  it('accepts arguments that fit', async () => {
    expect(
      await v({ city: 'Oslo', days: 3, unit: 'c', tags: ['a'], at: null, nested: { ok: true } }, schema),
    ).toEqual([])
  })

  it('names each problem with its path', async () => {
    expect(await v({ days: 0 }, schema)).toEqual([
      'arguments.city is required',
      'arguments.days must be >= 1',
    ])
    expect(await v({ city: 'oslo' }, schema)).toEqual(['arguments.city must match the pattern "^[A-Z]"'])
    expect((await v({ city: 'O' }, schema))[0]).toBe('arguments.city must have at least 2 characters')
    expect(await v({ city: 'Oslo', days: 2.5 }, schema)).toEqual([
      'arguments.days must be integer, not number',
    ])
    expect(await v({ city: 'Oslo', unit: 'k' }, schema)).toEqual(['arguments.unit must be one of "c", "f"'])
    expect(await v({ city: 'Oslo', tags: ['a', 1] }, schema)).toEqual([
      'arguments.tags[1] must be string, not number',
    ])
    expect((await v({ city: 'Oslo', tags: ['a', 'a'] }, schema))[0]).toMatch(/must not repeat items/)
    expect(await v({ city: 'Oslo', tags: [] }, schema)).toEqual(['arguments.tags must have at least 1 items'])
    expect(await v({ city: 'Oslo', at: 5 }, schema)).toEqual([
      'arguments.at must be string or null, not number',
    ])
    expect(await v({ city: 'Oslo', nested: {} }, schema)).toEqual(['arguments.nested.ok is required'])
    expect(await v({ city: 'Oslo', nested: { ok: false } }, schema)).toEqual([
      'arguments.nested.ok must be true',
    ])
    expect(await v({ city: 'Oslo', x: 1 }, schema)).toEqual(['arguments has an unknown property "x"'])
    expect(await v('Oslo', schema)).toEqual(['arguments must be object, not string'])
  })

  it('counts characters, not UTF-16 units', async () => {
    expect(await v('😀😀', { type: 'string', maxLength: 2 })).toEqual([])
  })

  it('supports exclusive bounds in both spellings, multipleOf, combinators and tuple items', async () => {
    expect(await v(5, { exclusiveMaximum: 5 })).toEqual(['arguments must be < 5'])
    expect(await v(5, { maximum: 5, exclusiveMaximum: true })).toEqual(['arguments must be < 5'])
    expect(await v(0.3, { multipleOf: 0.1 })).toEqual([])
    expect(await v(0.35, { multipleOf: 0.1 })).toEqual(['arguments must be a multiple of 0.1'])
    expect(await v('x', { anyOf: [{ type: 'number' }, { type: 'boolean' }] })).toEqual([
      'arguments matches none of the allowed shapes',
    ])
    expect(await v(1, { oneOf: [{ type: 'number' }, { type: 'integer' }] })).toEqual([
      'arguments must match exactly one allowed shape',
    ])
    expect(await v(1, { not: { type: 'number' } })).toEqual(['arguments matches a shape that is not allowed'])
    expect(
      await v([1, 'a', true], {
        prefixItems: [{ type: 'number' }, { type: 'string' }],
        items: { type: 'boolean' },
      }),
    ).toEqual([])
    expect(await v([1, 2], { items: [{ type: 'number' }], additionalItems: false })).toEqual([
      'arguments[1] is not allowed',
    ])
  })

  it('lets through what it does not understand, and never throws on odd schemas', async () => {
    expect(await v({ a: 1 }, { $ref: '#/definitions/x' })).toEqual([])
    expect(await v('x', { type: 'string', pattern: '(' })).toEqual([])
    expect(await v({ a: 1 }, null)).toEqual([])
    expect(await v({ a: 1 }, { properties: 'nonsense', required: 'a' })).toEqual([])
  })

  it(`reports at most ${AGENT_SCHEMA_MAX_PROBLEMS} problems`, async () => {
    const props = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string' }]))
    const args = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, i]))
    expect(await v(args, { type: 'object', properties: props })).toHaveLength(AGENT_SCHEMA_MAX_PROBLEMS)
  })

  it('stops descending into very deep values instead of overflowing the stack', async () => {
    let value: unknown = 1
    let schema: unknown = { type: 'string' }
    for (let i = 0; i < 5000; i++) {
      value = { a: value }
      schema = { type: 'object', properties: { a: schema } }
    }
    await expect(v(value, schema)).resolves.toBeInstanceOf(Array)
  })
})
