import { describe, expect, it } from 'vitest'
import { FlowError, renderTemplate } from '../../src/engine/index.ts'

/** renderTemplate keeps parsed references between calls and renders a lone reference directly. */
describe('renderTemplate, repeated and lone references', () => {
  const outputs: Record<string, Record<string, unknown>> = {
    a: { v: 'abc', n: 4, obj: { k: 1 }, empty: '' },
  }
  const lookup = (id: string) => outputs[id]

  it('a whole-text reference gives the value, its fallback, or empty text', () => {
    expect(renderTemplate('{{a.v}}', lookup)).toBe('abc')
    expect(renderTemplate('{{a.n}}', lookup)).toBe('4')
    expect(renderTemplate('{{a.obj}}', lookup)).toBe('{"k":1}')
    expect(renderTemplate('{{a.empty | "none"}}', lookup)).toBe('none')
    expect(renderTemplate('{{missing.v}}', lookup)).toBe('')
  })

  it('a whole-text reference still obeys the size limit and refused names', () => {
    expect(() => renderTemplate('{{a.v}}', lookup, 'n', { field: 'prompt', maxChars: 2 })).toThrow(FlowError)
    expect(() => renderTemplate('{{a.__proto__}}', lookup, 'n')).toThrow(/refused name/)
  })

  it('the same text rendered again reads the values of that call, not of an earlier one', () => {
    const text = 'x={{a.v}} y={{a.v}}'
    expect(renderTemplate(text, lookup)).toBe('x=abc y=abc')
    expect(renderTemplate(text, () => ({ v: 'other' }))).toBe('x=other y=other')
    expect(renderTemplate('{{a.v}}', () => ({ v: 'again' }))).toBe('again')
  })
})
