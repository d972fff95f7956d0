import { describe, expect, it } from 'vitest'
import { FlowError } from '../../src/engine/index.ts'
import { defaultSettings, type AppSettings } from '../../src/settings/schema.ts'
import {
  exportSettingsFull,
  exportSettingsSanitized,
  importSettingsText,
  settingsFileName,
} from '../../src/storage/settingsFile.ts'
import type { Secrets } from '../../src/storage/secrets.ts'

const KEY = 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4'

function settingsWithSecrets(): { settings: AppSettings; secrets: Secrets } {
  const settings = defaultSettings()
  settings.language = 'zh-CN'
  settings.providers.push(
    {
      id: 'claude',
      label: 'Claude',
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet',
      models: [],
      apiKey: '',
      stream: true,
      headers: [
        { key: 'x-api-key', value: '' },
        { key: 'anthropic-beta', value: 'tools-2024' },
      ],
    },
    {
      id: 'proxy',
      label: 'My proxy Bearer tok_live_abc123xyz',
      kind: 'openai',
      baseUrl: 'https://user:pa55word@proxy.example.test/v1?access_token=qwerty123&region=eu',
      model: 'gpt',
      models: [],
      apiKey: 'plain-proxy-key',
      stream: false,
      headers: [{ key: 'X-Custom-Token', value: 'ghp_0123456789abcdefABCDEF' }],
    },
  )
  const secrets: Secrets = [
    { providerId: 'claude', apiKey: KEY, headers: [{ key: 'x-api-key', value: 'hdr-key-777' }] },
  ]
  return { settings, secrets }
}

const PLANTED = [
  KEY,
  'hdr-key-777',
  'tok_live_abc123xyz',
  'pa55word',
  'qwerty123',
  'plain-proxy-key',
  'ghp_0123456789abcdefABCDEF',
]

describe('sanitized settings export', () => {
  it('removes every secret, lists the paths, and keeps everything else', () => {
    const { settings, secrets } = settingsWithSecrets()
    const { text, redacted } = exportSettingsSanitized(settings, secrets, {
      exportedAt: '2026-11-29T10:00:00.000Z',
      appVersion: '9.9.9',
    })
    for (const secret of PLANTED) expect(text).not.toContain(secret)
    const file = JSON.parse(text) as Record<string, unknown> & { settings: AppSettings }
    expect(Object.keys(file)).toEqual([
      'format',
      'version',
      'kind',
      'exportedAt',
      'app',
      'settings',
      'redacted',
    ])
    expect(file).toMatchObject({
      format: 'wardflow.settings',
      version: 1,
      kind: 'sanitized',
      exportedAt: '2026-11-29T10:00:00.000Z',
      app: { version: '9.9.9' },
    })
    expect([...redacted].sort()).toEqual([
      'settings.providers[1].apiKey',
      'settings.providers[1].headers[0].value',
      'settings.providers[2].apiKey',
      'settings.providers[2].baseUrl',
      'settings.providers[2].headers[0].value',
      'settings.providers[2].label',
    ])
    expect(file.redacted).toEqual(redacted)
    expect(file.settings.providers[2]?.baseUrl).toBe('https://proxy.example.test/v1?access_token=&region=eu')
    expect(file.settings.providers[1]?.headers[1]).toEqual({ key: 'anthropic-beta', value: 'tools-2024' })
    expect(file.settings.language).toBe('zh-CN')
  })

  it('imports back as valid settings with empty keys', async () => {
    const { settings, secrets } = settingsWithSecrets()
    const imported = await importSettingsText(exportSettingsSanitized(settings, secrets).text)
    expect(imported.kind).toBe('sanitized')
    expect(imported.secrets).toEqual([])
    expect(imported.settings.providers.map((p) => p.apiKey)).toEqual(['', '', ''])
    expect(imported.settings.providers[1]?.headers[1]).toEqual({ key: 'anthropic-beta', value: 'tools-2024' })
  })
})

describe('settings files and the run budget', () => {
  it('a file keeps the run limits and price overrides; a file written before them loads without', async () => {
    const { settings, secrets } = settingsWithSecrets()
    settings.runLimits = { maxRunTokens: 1000 }
    settings.priceOverrides = [{ provider: '*', model: 'm', inputUsdPerMTok: 2, outputUsdPerMTok: 3 }]
    const text = exportSettingsSanitized(settings, secrets).text
    const imported = await importSettingsText(text)
    expect(imported.settings.runLimits).toEqual({ maxRunTokens: 1000 })
    expect(imported.settings.priceOverrides).toEqual(settings.priceOverrides)
    const file = JSON.parse(text) as { settings: Record<string, unknown> }
    delete file.settings.runLimits
    delete file.settings.priceOverrides
    const old = await importSettingsText(JSON.stringify(file))
    expect(old.settings.runLimits).toEqual({})
    expect(old.settings.priceOverrides).toEqual([])
  })
})

describe('full settings export', () => {
  it('holds no plaintext secret, and the right passphrase restores every value', async () => {
    const { settings, secrets } = settingsWithSecrets()
    const { text, redacted } = await exportSettingsFull(settings, secrets, 'moving to my laptop')
    for (const secret of PLANTED) expect(text).not.toContain(secret)
    const file = JSON.parse(text) as Record<string, unknown>
    expect(file.kind).toBe('full')
    expect(file.encrypted).toMatchObject({
      kdf: 'PBKDF2-SHA-256',
      iterations: 600_000,
      cipher: 'AES-256-GCM',
    })
    expect(redacted).toHaveLength(6)

    const imported = await importSettingsText(text, 'moving to my laptop')
    const expected = structuredClone(settings)
    const claude = expected.providers[1]
    if (claude) {
      claude.apiKey = KEY
      claude.headers[0] = { key: 'x-api-key', value: 'hdr-key-777' }
    }
    expect(imported.settings).toEqual(expected)
    expect(imported.secrets).toEqual([
      { providerId: 'claude', apiKey: KEY, headers: [{ key: 'x-api-key', value: 'hdr-key-777' }] },
      {
        providerId: 'proxy',
        apiKey: 'plain-proxy-key',
        headers: [{ key: 'X-Custom-Token', value: 'ghp_0123456789abcdefABCDEF' }],
      },
    ])
  })

  it('refuses a wrong or missing passphrase with WRONG_PASSPHRASE', async () => {
    const { settings, secrets } = settingsWithSecrets()
    const { text } = await exportSettingsFull(settings, secrets, 'the right one')
    await expect(importSettingsText(text, 'the wrong one')).rejects.toMatchObject({
      code: 'WRONG_PASSPHRASE',
    })
    await expect(importSettingsText(text)).rejects.toMatchObject({
      code: 'WRONG_PASSPHRASE',
      details: { needsPassphrase: true },
    })
    await expect(exportSettingsFull(settings, secrets, 'short')).rejects.toMatchObject({
      code: 'WRONG_PASSPHRASE',
    })
  })

  it('treats tampered ciphertext or a crafted path as damage, never applying it', async () => {
    const { settings, secrets } = settingsWithSecrets()
    const { text } = await exportSettingsFull(settings, secrets, 'the right one')
    const file = JSON.parse(text) as { encrypted: { data: string; iterations: number } }
    const flipped = { ...file, encrypted: { ...file.encrypted, data: `A${file.encrypted.data.slice(1)}` } }
    await expect(importSettingsText(JSON.stringify(flipped), 'the right one')).rejects.toMatchObject({
      code: 'WRONG_PASSPHRASE',
    })
    const slow = { ...file, encrypted: { ...file.encrypted, iterations: 1e12 } }
    await expect(importSettingsText(JSON.stringify(slow), 'the right one')).rejects.toMatchObject({
      code: 'IMPORT_INVALID',
      details: { path: 'encrypted.iterations' },
    })
  })
})

describe('settings import refuses damaged files with a path', () => {
  async function refusal(text: string): Promise<FlowError> {
    const error = await importSettingsText(text).catch((e: unknown) => e)
    if (!(error instanceof FlowError)) throw new Error('expected a FlowError')
    return error
  }

  it('syntax, format, version and kind', async () => {
    expect(await refusal('{"format":')).toMatchObject({
      code: 'IMPORT_INVALID',
      message: expect.stringMatching(/not valid JSON/),
    })
    expect(await refusal('{"format":"wardflow.workflow","version":1}')).toMatchObject({
      details: { path: 'format' },
      message: expect.stringMatching(/workflow file/),
    })
    const good = JSON.parse(exportSettingsSanitized(defaultSettings()).text) as Record<string, unknown>
    expect(await refusal(JSON.stringify({ ...good, version: 3 }))).toMatchObject({
      details: { path: 'version' },
      message: expect.stringMatching(/newer/),
    })
    expect(await refusal(JSON.stringify({ ...good, kind: 'partial' }))).toMatchObject({
      details: { path: 'kind' },
    })
  })

  it('settings that do not validate, at the exact path', async () => {
    const good = JSON.parse(exportSettingsSanitized(defaultSettings()).text) as { settings: AppSettings }
    const badTheme = structuredClone(good)
    ;(badTheme.settings as { theme: string }).theme = 'neon'
    expect(await refusal(JSON.stringify(badTheme))).toMatchObject({ details: { path: 'settings.theme' } })
    const badProvider = structuredClone(good)
    ;(badProvider.settings.providers[0] as { id: string }).id = 'has space'
    expect(await refusal(JSON.stringify(badProvider))).toMatchObject({
      details: { path: 'settings.providers[0].id' },
    })
  })

  it('names files by kind and day', () => {
    expect(settingsFileName('full', '2026-11-29T10:00:00.000Z')).toBe(
      'wardflow-full-2026-11-29.wardflow-settings.json',
    )
  })
})
