import { describe, expect, it } from 'vitest'
import {
  autoMap,
  columnInputs,
  looseName,
  rowInputs,
  unmappedKeys,
  unusedColumns,
  valueText,
} from '../../src/batch/mapping.ts'
import { keyedRecord } from '../../src/engine/index.ts'

describe('column mapping', () => {
  it('maps by exact name first, then by a loose name when only one column has it', () => {
    const mapping = autoMap(
      ['question', 'user_name', 'Topic', 'missing'],
      ['Question', 'question', 'User Name', 'topic'],
    )
    expect({ ...mapping }).toEqual({
      question: 'question',
      user_name: 'User Name',
      Topic: 'topic',
      missing: null,
    })
    expect(unmappedKeys(mapping)).toEqual(['missing'])
    expect(unusedColumns(['Question', 'question', 'User Name', 'topic'], mapping)).toEqual(['Question'])
  })

  it('guesses nothing when two columns match loosely', () => {
    expect({ ...autoMap(['user_name'], ['User Name', 'user-name']) }).toEqual({ user_name: null })
  })

  it('compares names loosely across case, separators and full-width forms', () => {
    expect(looseName('User-Name_ 1')).toBe(looseName('username1'))
    expect(looseName('ＡＢＣ')).toBe('abc')
  })

  it('sets only mapped keys whose column the row has; values become text', () => {
    const mapping = keyedRecord<string | null>({ q: 'question', n: 'count', none: null, gone: 'absent' })
    const values = keyedRecord<unknown>({ question: 'hi', count: 3, extra: 'x' })
    expect({ ...rowInputs(values, mapping) }).toEqual({ q: 'hi', n: '3' })
  })

  it('maps a __proto__ key and column as data', () => {
    const mapping = autoMap(['__proto__'], ['__proto__'])
    const inputs = rowInputs(keyedRecord<unknown>({ ['__proto__']: 'v' }), mapping)
    expect(Object.keys(inputs)).toEqual(['__proto__'])
    expect(inputs['__proto__']).toBe('v')
  })

  it('the CLI rule: every column sets the key of its name', () => {
    expect({ ...columnInputs(keyedRecord<unknown>({ a: 'x', b: { y: 1 }, c: null, d: true })) }).toEqual({
      a: 'x',
      b: '{"y":1}',
      c: '',
      d: 'true',
    })
    expect(valueText([1, 'a'])).toBe('[1,"a"]')
  })
})
