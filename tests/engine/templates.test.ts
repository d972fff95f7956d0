import { describe, expect, it } from 'vitest'
import {
  extractRefs,
  FlowError,
  lookupPath,
  renderTemplate,
  valueToText,
  type OutputLookup,
} from '../../src/engine/index.ts'

const outputs: Record<string, Record<string, unknown>> = {
  input_1: { question: 'What is 2+2?', empty: '', nothing: null },
  http_1: { body: { items: [{ name: 'first' }, { name: 'second' }], 'dash-key': 7, ok: true }, status: 200 },
  llm_1: { response: 'Four.' },
}
const lookup: OutputLookup = (id) => outputs[id]

describe('renderTemplate', () => {
  it('replaces references by looking values up in upstream outputs', () => {
    expect(renderTemplate('Q: {{input_1.question}} A: {{ llm_1.response }}', lookup)).toBe(
      'Q: What is 2+2? A: Four.',
    )
  })

  it('follows dot keys and [n] indices', () => {
    expect(
      renderTemplate(
        '{{http_1.body.items[1].name}}/{{http_1.body.dash-key}}/{{http_1.body.items.0.name}}',
        lookup,
      ),
    ).toBe('second/7/first')
  })

  it('inserts objects and arrays as JSON text, numbers and booleans as text', () => {
    expect(renderTemplate('{{http_1.body.items[0]}}', lookup)).toBe('{"name":"first"}')
    expect(renderTemplate('{{http_1.status}} {{http_1.body.ok}}', lookup)).toBe('200 true')
    expect(renderTemplate('{{llm_1}}', lookup)).toBe('{"response":"Four."}')
  })

  it('uses the fallback for missing nodes, missing paths, null and empty values', () => {
    expect(renderTemplate('{{ghost.x | "none"}}', lookup)).toBe('none')
    expect(renderTemplate('{{input_1.missing | "n/a"}}', lookup)).toBe('n/a')
    expect(renderTemplate('{{input_1.nothing|"null!"}}|{{input_1.empty | \'blank\'}}', lookup)).toBe(
      'null!|blank',
    )
    expect(renderTemplate('{{http_1.body.items[9].name | "say \\"hi\\""}}', lookup)).toBe('say "hi"')
  })

  it('renders an unresolvable reference without fallback as empty text', () => {
    expect(renderTemplate('[{{ghost.value}}][{{input_1.question.length}}]', lookup)).toBe('[][]')
  })

  it('never evaluates what is inside the braces', () => {
    let touched = false
    const spy: OutputLookup = (id) => {
      touched = true
      return outputs[id]
    }
    const text = '{{ 1 + 1 }} {{input_1.question.toUpperCase()}} {{constructor.constructor("return 1")()}}'
    expect(renderTemplate(text, spy)).toBe(text)
    expect(touched).toBe(false)
  })

  it('refuses __proto__, prototype and constructor with REF_FORBIDDEN_SEGMENT', () => {
    for (const text of [
      '{{input_1.__proto__}}',
      '{{input_1.constructor}}',
      '{{http_1.body.prototype | "x"}}',
    ]) {
      expect(() => renderTemplate(text, lookup, 'me')).toThrow(FlowError)
      try {
        renderTemplate(text, lookup, 'me')
      } catch (error) {
        expect(error).toMatchObject({ code: 'REF_FORBIDDEN_SEGMENT', nodeId: 'me' })
      }
    }
  })

  it('reads a node whose id is an Object.prototype name: the id is looked up, not walked', () => {
    const ids = new Map<string, Record<string, unknown>>([
      ['__proto__', { x: 'p' }],
      ['constructor', { x: 'c' }],
    ])
    const byId: OutputLookup = (id) => ids.get(id)
    expect(renderTemplate('{{__proto__.x}} {{constructor.x}} {{toString.x | "none"}}', byId)).toBe('p c none')
  })

  it('reads own properties only, never inherited ones', () => {
    expect(lookupPath({ a: 1 }, ['toString'])).toEqual({ found: false })
    expect(lookupPath({ a: [1, 2] }, ['a', 'map'])).toEqual({ found: false })
    expect(lookupPath(Object.create({ inherited: 'x' }) as unknown, ['inherited'])).toEqual({ found: false })
    expect(lookupPath({ a: [1, 2] }, ['a', 1])).toEqual({ found: true, value: 2 })
  })

  it('leaves text that is not a well-formed reference untouched', () => {
    const text = 'JSON {"a": {"b": 1}} and {{ not a ref }} and {{a b}} and {single}'
    expect(renderTemplate(text, lookup)).toBe(text)
  })
})

describe('extractRefs', () => {
  it('lists each reference with node id, path, fallback and position', () => {
    const refs = extractRefs('Hi {{input_1.question}}, {{http_1.body.items[0].name | "?"}}')
    expect(refs).toEqual([
      { raw: '{{input_1.question}}', nodeId: 'input_1', path: ['question'], start: 3, end: 23 },
      {
        raw: '{{http_1.body.items[0].name | "?"}}',
        nodeId: 'http_1',
        path: ['body', 'items', 0, 'name'],
        fallback: '?',
        start: 25,
        end: 60,
      },
    ])
  })

  it('marks refused segments so preflight can report them', () => {
    expect(extractRefs('{{a.b.__proto__.c}}')[0]?.problem).toBe('forbidden-segment')
  })
})

describe('valueToText', () => {
  it('turns null and undefined into empty text', () => {
    expect(valueToText(null)).toBe('')
    expect(valueToText(undefined)).toBe('')
    expect(valueToText(['a', 1])).toBe('["a",1]')
  })
})
