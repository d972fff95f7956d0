import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalToolSignature } from '../../../src/engine/index.ts'

const sig = (args: string, name = 'tool'): string => canonicalToolSignature(name, args)
const same = (a: string, b: string): void => expect(sig(a)).toBe(sig(b))
const differ = (a: string, b: string): void => expect(sig(a)).not.toBe(sig(b))

/** The value part of a signature of valid JSON, which is itself JSON meaning the same value. */
function valuePart(signature: string): unknown {
  const text = signature.slice(signature.indexOf(':') + 1)
  return JSON.parse(text) as unknown
}

/** Reference semantics: NFC every string and key; key order is irrelevant to toEqual. */
function normalised(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC')
  if (Array.isArray(value)) return value.map(normalised)
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties: an assignment `out['__proto__'] = x` would set the
    // prototype instead, and fast-check does generate "__proto__" keys.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.normalize('NFC'), normalised(item)]),
    )
  }
  if (Object.is(value, -0)) return 0
  return value
}

/** Writes a JSON value with shuffled keys and random whitespace, as a sloppy model would. */
function reformat(value: unknown, rand: () => number): string {
  const ws = (): string => [' ', '\n', '\t', '  ', '', '\r\n'][Math.floor(rand() * 6)] as string
  if (Array.isArray(value)) return `[${ws()}${value.map((v) => reformat(v, rand)).join(`,${ws()}`)}${ws()}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(() => rand() - 0.5)
    return `{${ws()}${entries.map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${reformat(v, rand)}`).join(`,${ws()}`)}${ws()}}`
  }
  return JSON.stringify(value)
}

describe('canonicalToolSignature: what does not matter', () => {
  it('ignores key order at every depth', () => {
    same('{"a":1,"b":{"x":[1,{"p":1,"q":2}],"y":2}}', '{"b":{"y":2,"x":[1,{"q":2,"p":1}]},"a":1}')
  })

  it('ignores whitespace outside strings, but not inside them', () => {
    same('{"a":[1,2]}', ' \n{ "a" :\t[ 1 , 2 ] }\r\n')
    differ('{"a":"x y"}', '{"a":"x  y"}')
  })

  it('compares numbers by value: 1, 1.0, 1e0, 10e-1, 0.1e1 and 100e-2 are equal', () => {
    for (const spelling of ['1.0', '1e0', '1E+0', '10e-1', '0.1e1', '100e-2', '1.000'])
      same('{"n":1}', `{"n":${spelling}}`)
    same('{"n":1500}', '{"n":1.5e3}')
    same('{"n":0.001}', '{"n":1e-3}')
    differ('{"n":1}', '{"n":1.0000000001}')
  })

  it('treats -0 as 0 in every spelling', () => {
    for (const zero of ['-0', '0.0', '-0.0', '0e5', '-0E-3']) same('{"n":0}', `{"n":${zero}}`)
  })

  it('keeps integers beyond 2^53 apart by their digits', () => {
    differ('{"id":9007199254740993}', '{"id":9007199254740992}')
    same('{"id":9007199254740993}', '{"id":9007199254740993.0}')
    differ('{"n":0.1000000000000000000001}', '{"n":0.1}')
    differ('{"n":123456789012345678901234567890}', '{"n":123456789012345678901234567891}')
  })

  it('keeps huge exponents exact', () => {
    differ('{"n":1e400}', '{"n":1e401}')
    same('{"n":1e400}', '{"n":10e399}')
    differ('{"n":1e99999999999999999999}', '{"n":1e99999999999999999998}')
    same('{"n":1e99999999999999999999}', '{"n":0.1e100000000000000000000}')
  })

  it('normalises strings and keys to NFC and reads escapes', () => {
    same('{"q":"caf\\u00e9"}', '{"q":"café"}')
    same('{"q":"café"}', '{"q":"cafe\u0301"}')
    same('{"caf\u00e9":1}', '{"cafe\u0301":1}')
    same('{"p":"a/b"}', '{"p":"a\\/b"}')
    same('{"p":"A"}', '{"p":"\\u0041"}')
    same('{"p":"\\u00E9"}', '{"p":"\\u00e9"}')
    same('{"p":"line\\nbreak"}', '{"p":"line\\u000abreak"}')
  })

  it('lets the last of duplicated keys win, as JSON.parse does', () => {
    same('{"a":1,"a":2}', '{"a":2}')
    differ('{"a":1,"a":2}', '{"a":1}')
    same('{"a":1,"b":0,"a":3}', '{"b":0,"a":3}')
    // Keys that are equal after NFC are duplicates too.
    same('{"caf\u00e9":1,"cafe\u0301":2}', '{"café":2}')
  })

  it('is invariant under key reordering and reformatting (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        let state = seed
        const rand = (): number => {
          state = (state * 1103515245 + 12345) & 0x7fffffff
          return state / 0x7fffffff
        }
        const text = JSON.stringify(value)
        expect(sig(reformat(value, rand))).toBe(sig(text))
      }),
      { numRuns: 300 },
    )
  })
})

describe('canonicalToolSignature: what does matter', () => {
  it('keeps array order', () => differ('{"ids":[1,2]}', '{"ids":[2,1]}'))
  it('tells null from a missing key', () => differ('{"a":null}', '{}'))
  it('tells the string "1" from the number 1', () => differ('{"n":"1"}', '{"n":1}'))
  it('tells true from "true" and [] from {}', () => {
    differ('{"b":true}', '{"b":"true"}')
    differ('{"b":[]}', '{"b":{}}')
  })
  it('includes the tool name', () => expect(sig('{}', 'a')).not.toBe(sig('{}', 'b')))
  it('does not let the name and arguments run into each other', () => {
    expect(canonicalToolSignature('a b', '{}')).not.toBe(canonicalToolSignature('a', 'b {}'))
  })

  it('signs a top-level value that is not an object with its type', () => {
    differ('"ls"', 'ls')
    differ('123', '"123"')
    differ('[1]', '{"0":1}')
    differ('null', '"null"')
    expect(sig('"ls"')).toContain('string')
    expect(sig('123')).toContain('number')
  })

  it('keeps the value: the canonical text parses back to the same value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value)
        expect(valuePart(sig(text))).toEqual(normalised(JSON.parse(text)))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps a "__proto__" key as data (the case the property test found)', () => {
    const text = '{"__proto__":{"a":1},"b":[{"__proto__":null}]}'
    expect(valuePart(sig(text))).toEqual(normalised(JSON.parse(text)))
    differ(text, '{"b":[{"__proto__":null}]}')
  })

  it('gives different values different signatures (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const equal =
          JSON.stringify(valuePart(sig(JSON.stringify(a)))) ===
          JSON.stringify(valuePart(sig(JSON.stringify(b))))
        expect(sig(JSON.stringify(a)) === sig(JSON.stringify(b))).toBe(equal)
      }),
      { numRuns: 300 },
    )
  })
})

describe('canonicalToolSignature: text that is not JSON', () => {
  it('compares invalid JSON as text with whitespace runs collapsed', () => {
    same('{"a": 1', '{"a":    1')
    same('{"a": 1', '{"a":\n\t 1')
    differ('{"a": 1', '{"a": 2')
    differ('{"a":1', '{"a": 1') // no whitespace is not the same as some
  })

  it('never confuses raw text with a JSON value of the same spelling', () => {
    differ('ls', '"ls"')
    differ('{a:1}', '{"a":1}')
  })

  it('accepts exactly what JSON.parse accepts (differential property)', () => {
    const alphabet = fc.constantFrom(
      ...'{}[]",:. 0123456789-+eEtruefalsn\\u/x\n'.split(''),
      '"a"',
      '1e5',
      'null',
    )
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (parts) => {
        const text = parts.join('')
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        expect(sig(text).startsWith(`"tool" raw:`)).toBe(!valid)
      }),
      { numRuns: 2000 },
    )
  })

  it('refuses the near-JSON that JSON.parse refuses', () => {
    for (const text of [
      '[1,]',
      '{"a":01}',
      '{"a":.5}',
      '{"a":1.}',
      "{'a':1}",
      '{"a":"\t"}',
      '"\\x41"',
      '{"a":1}}',
      'NaN',
      '-',
      '1e',
      '"\\u12"',
    ]) {
      expect(sig(text), text).toContain('raw:')
    }
  })
})

describe('canonicalToolSignature: never throws', () => {
  it('handles lone surrogates, raw and escaped', () => {
    expect(() => sig('{"s":"\\ud800"}')).not.toThrow()
    expect(() => sig('{"s":"\ud800x"}')).not.toThrow()
    same('{"s":"\\ud800"}', '{"s":"\ud800"}')
    differ('{"s":"\\ud800"}', '{"s":"\\udc00"}')
  })

  it('handles 200-deep and 100 000-deep nesting without recursion', () => {
    const deep = (n: number): string => '{"a":'.repeat(n) + '[1]' + '}'.repeat(n)
    expect(sig(deep(200))).toContain('object:')
    expect(sig(deep(100_000))).toContain('object:')
    differ(deep(200), deep(201))
    expect(sig('['.repeat(100_000) + ']'.repeat(100_000))).toContain('array:')
  })

  it('handles a 1 MB string argument, plain or with escapes and accents', () => {
    const big = 'x'.repeat(1024 * 1024)
    same(JSON.stringify({ content: big }), `{ "content" : "${big}" }`)
    const text = 'ligne\u00e9\n'.repeat(100_000)
    same(JSON.stringify({ content: text }), JSON.stringify({ content: text.normalize('NFD') }))
  })

  it('never throws on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
        expect(typeof sig(text)).toBe('string')
        expect(typeof sig(`{"k":"${text}"}`)).toBe('string')
      }),
      { numRuns: 1000 },
    )
  })

  it('reads arguments that arrive as something other than a string', () => {
    const loose = canonicalToolSignature as (name: string, args: unknown) => string
    expect(loose('tool', { b: 1, a: 2 })).toBe(sig('{"a":2,"b":1}'))
    expect(() => loose('tool', undefined)).not.toThrow()
  })
})
