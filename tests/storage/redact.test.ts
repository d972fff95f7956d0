import { describe, expect, it } from 'vitest'
import { isTemplateOnly, redactSecrets, redactString } from '../../src/storage/redact.ts'
import { isSecretHeaderName, mergeSecrets, splitSecrets } from '../../src/storage/secrets.ts'
import { getAtPath, parseJsonPath, setAtPath } from '../../src/storage/jsonPath.ts'
import { defaultSettings } from '../../src/settings/schema.ts'

describe('redactString', () => {
  it.each([
    ['key sk-proj-AbCdEf0123456789 here', 'key  here'],
    ['stripe sk_live_abcdefgh12345678', 'stripe '],
    ['Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9abc.sig123', 'Authorization: '],
    ['token ghp_abcdefghijklmnop0123', 'token '],
    ['github_pat_11ABCDEFG0123456789_abcdef', ''],
    ['slack xoxb-1234-5678-abcdefgh', 'slack '],
    ['maps AIzaSyA1234567890abcdefghijklmnopq', 'maps '],
    ['aws AKIAIOSFODNN7EXAMPLE', 'aws '],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: '],
    ['hf hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'hf '],
    ['groq gsk_AbCdEfGhIjKlMnOpQrStUvWx', 'groq '],
    [
      'https://x.test/?x-api-key=abc&subscription-key=def&keyword=cats',
      'https://x.test/?x-api-key=&subscription-key=&keyword=cats',
    ],
    ['https://me:pa55@host.test/x', 'https://host.test/x'],
    [
      'https://host.test/x?api_key=abc&keep=1&token=def#access_token=ghi',
      'https://host.test/x?api_key=&keep=1&token=#access_token=',
    ],
  ])('careful: %s', (input, output) => {
    expect(redactString(input, 'careful')).toBe(output)
  })

  it('careful mode leaves prose and templates alone', () => {
    for (const text of [
      'the bearer of good news',
      'Basic instructions follow',
      'risk-free task-force',
      'sk-learn',
      '?q={{in.city}}&api_key={{in.key}}',
      'Bearer {{in.token}}',
    ]) {
      expect(redactString(text, 'careful')).toBe(text)
    }
  })

  it('aggressive mode also takes short and odd-cased shapes, and repeats until nothing is left', () => {
    expect(redactString('BEARER abc', 'aggressive')).toBe('')
    expect(redactString('x sk-1 y', 'aggressive')).toBe('x  y')
    expect(redactString('token: ghp_x', 'aggressive')).toBe('token: ')
    expect(redactString('ssk-AAAAAAAAAAk-BBBBBBBBBB', 'aggressive')).not.toMatch(/sk-/)
    expect(redactString('prefixsk-abc and xBearer tok', 'aggressive')).toBe('prefix and x')
    expect(redactString('?code=123&page=2', 'aggressive')).toBe('?code=&page=2')
    // Found by the settings property test: the sk- rule used to eat "bearer" and leave the token.
    expect(redactString('Sk-bearer A00AaaaA0aAaaa', 'aggressive')).toBe('')
    expect(redactString('sk-Bearer A00AaaaA0aAaaa x', 'aggressive')).toBe(' x')
  })

  it('knows a template-only value', () => {
    expect(isTemplateOnly('{{a.b}}')).toBe(true)
    expect(isTemplateOnly('Bearer {{a.b}}')).toBe(true)
    expect(isTemplateOnly('Bearer abc{{a.b}}')).toBe(false)
    expect(isTemplateOnly('plain')).toBe(false)
  })
})

describe('redactSecrets', () => {
  it('empties credential fields and secret pairs, with JSON paths', () => {
    const value = {
      apiKey: 'k1-value',
      nested: {
        password: 'p@ss',
        list: [
          { key: 'X-Api-Key', value: 'v1' },
          { key: 'Accept', value: 'json' },
        ],
      },
      'odd key': { token: 't0k3n' },
    }
    const { value: out, redacted } = redactSecrets(value, 'root', 'aggressive')
    expect(out).toEqual({
      apiKey: '',
      nested: {
        password: '',
        list: [
          { key: 'X-Api-Key', value: '' },
          { key: 'Accept', value: 'json' },
        ],
      },
      'odd key': { token: '' },
    })
    expect(redacted.map((r) => r.path)).toEqual([
      'root.apiKey',
      'root.nested.password',
      'root.nested.list[0].value',
      'root["odd key"].token',
    ])
  })

  it('recognises credential field names by suffix, not plural counters', () => {
    const { value } = redactSecrets(
      {
        openaiApiKey: 'a1',
        githubToken: 'b2',
        dbPassword: 'c3',
        maxTokens: 5,
        totalTokens: 'x',
        tokenizer: 'y',
      },
      '',
      'careful',
    )
    expect(value).toEqual({
      openaiApiKey: '',
      githubToken: '',
      dbPassword: '',
      maxTokens: 5,
      totalTokens: 'x',
      tokenizer: 'y',
    })
  })

  it('cuts a removed secret out of every other string too', () => {
    const { value, redacted } = redactSecrets(
      { apiKey: 'my-plain-key', note: 'paste my-plain-key here', url: 'https://x.test/my-plain-key' },
      '',
      'aggressive',
    )
    expect(value).toEqual({ apiKey: '', note: 'paste  here', url: 'https://x.test/' })
    expect(redacted.map((r) => r.path).sort()).toEqual(['apiKey', 'note', 'url'])
  })
})

describe('secret split and merge', () => {
  it('are inverse and name secret headers', () => {
    const settings = defaultSettings()
    settings.providers.push({
      id: '__proto__',
      label: 'p',
      kind: 'openai',
      baseUrl: '',
      model: '',
      models: [],
      apiKey: 'k',
      stream: true,
      headers: [
        { key: 'Authorization', value: 'a' },
        { key: 'X-Org', value: 'o' },
      ],
    })
    const { settings: clean, secrets } = splitSecrets(settings)
    expect(JSON.stringify(clean)).not.toMatch(/"k"|"a"/)
    expect(mergeSecrets(clean, secrets)).toEqual(settings)
    expect(Object.getPrototypeOf(secrets)).toBe(Array.prototype)
    expect(
      ['Authorization', 'x-api-key', 'X-Auth-Token', 'Cookie', 'api-key'].every(isSecretHeaderName),
    ).toBe(true)
    expect(['Content-Type', 'Accept', 'X-Author'].some(isSecretHeaderName)).toBe(false)
  })
})

describe('json paths', () => {
  it('parse what redaction writes and refuse prototype keys', () => {
    expect(parseJsonPath('settings.providers[0].headers[1].value')).toEqual([
      'settings',
      'providers',
      0,
      'headers',
      1,
      'value',
    ])
    expect(parseJsonPath('a["odd key"].b')).toEqual(['a', 'odd key', 'b'])
    expect(parseJsonPath('a.__proto__.polluted')).toBeUndefined()
    expect(parseJsonPath('a[x]')).toBeUndefined()
    const root = { a: [{ b: 'x' }] }
    setAtPath(root, ['a', 0, 'b'], 'y')
    setAtPath(root, ['a', 0, 'c'], 'ignored')
    expect(root).toEqual({ a: [{ b: 'y' }] })
    expect(getAtPath(root, ['a', 0, 'b'])).toBe('y')
    expect(getAtPath(root, ['a', 'length'])).toBeUndefined()
  })
})
