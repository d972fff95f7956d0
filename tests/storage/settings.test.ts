import { describe, expect, it } from 'vitest'
import { PROVIDER_CALL_DEADLINE_MS } from '../../src/defaults.ts'
import { defaultSettings, type AppSettings, type ProviderSettings } from '../../src/settings/schema.ts'
import { loadSettings, saveSettings } from '../../src/storage/repositories/settings.ts'
import { isLocked, lockSecrets, removeSecretsLock, unlockSecrets } from '../../src/storage/keyLock.ts'
import { freshDb } from './support.ts'

const KEY = 'sk-proj-Abc123Def456Ghi789'

function withOpenAi(apiKey = KEY, headers: ProviderSettings['headers'] = []): AppSettings {
  const settings = defaultSettings()
  settings.providers.push({
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    models: ['gpt-4o-mini'],
    apiKey,
    stream: true,
    headers,
  })
  return settings
}

describe('settings repository', () => {
  it('gives defaults on a fresh install', async () => {
    const db = await freshDb()
    expect(await loadSettings(db)).toEqual({ settings: defaultSettings(), locked: false, notes: [] })
  })

  it('keeps keys out of the settings row but hands them back to the app', async () => {
    const db = await freshDb()
    const settings = withOpenAi(KEY, [
      { key: 'x-api-key', value: 'hdr-secret-1' },
      { key: 'X-Org', value: 'org-1' },
    ])
    await saveSettings(db, settings)
    const row = JSON.stringify(await db.settings.get('app'))
    expect(row).not.toContain(KEY)
    expect(row).not.toContain('hdr-secret-1')
    expect(row).toContain('org-1')
    expect((await loadSettings(db)).settings).toEqual(settings)
  })

  it('repairs invalid stored fields one by one and says which', async () => {
    const db = await freshDb()
    const good = withOpenAi('')
    await db.settings.put({
      id: 'app',
      value: {
        ...good,
        theme: 'neon',
        autosaveDelayMs: -5,
        providers: [good.providers[1], { id: 'bad id!' }],
      },
    })
    const { settings, notes } = await loadSettings(db)
    expect(settings.theme).toBe(defaultSettings().theme)
    expect(settings.autosaveDelayMs).toBe(defaultSettings().autosaveDelayMs)
    // The built-in demo provider, missing from the stored row, is put back (templates need it).
    expect(settings.providers.map((p) => p.id)).toEqual(['openai', 'demo'])
    expect(notes).toEqual([
      'theme: invalid, default used',
      'autosaveDelayMs: invalid, default used',
      'providers[1]: invalid, left out',
      'providers: the built-in demo provider was missing and is back',
    ])
  })

  it('puts the built-in demo provider back when a stored row lacks it or gives its id another kind', async () => {
    const db = await freshDb()
    const good = withOpenAi('')
    await db.settings.put({ id: 'app', value: { ...good, providers: [good.providers[1]] } })
    expect((await loadSettings(db)).settings.providers.find((p) => p.id === 'demo')?.kind).toBe('demo')
    const hijacked = { ...good.providers[1]!, id: 'demo' }
    await db.settings.put({ id: 'app', value: { ...good, providers: [hijacked] } })
    const loaded = await loadSettings(db)
    expect(loaded.settings.providers).toEqual([defaultSettings().providers[0]])
    expect(loaded.notes.join(' ')).toContain('built-in demo provider')
  })

  it('keeps the protection settings stored before the model call deadline existed, with its default', async () => {
    const db = await freshDb()
    const { modelCallDeadlineMs: _new, ...before } = {
      ...defaultSettings().runtimeProtection,
      maxIterations: 7,
    }
    await db.settings.put({ id: 'app', value: { ...withOpenAi(), runtimeProtection: before } })
    const { settings, notes } = await loadSettings(db)
    expect(notes).toEqual([])
    expect(settings.runtimeProtection.maxIterations).toBe(7)
    expect(settings.runtimeProtection.modelCallDeadlineMs).toBe(PROVIDER_CALL_DEADLINE_MS)
  })

  it('keeps the run limits and price overrides through a save and a load', async () => {
    const db = await freshDb()
    const settings: AppSettings = {
      ...withOpenAi(),
      runLimits: { maxRunTokens: 20000, maxRunCostUsd: 0.5 },
      priceOverrides: [
        { provider: 'openai', model: 'gpt-4o-mini', inputUsdPerMTok: 0.1, outputUsdPerMTok: 0.4 },
        {
          provider: '*',
          model: 'house-model',
          inputUsdPerMTok: 1.25,
          outputUsdPerMTok: 5,
          cachedInputUsdPerMTok: 0.125,
        },
      ],
    }
    await saveSettings(db, settings)
    expect((await loadSettings(db)).settings).toEqual(settings)
  })

  it('loads settings stored before run limits and price overrides existed: no limit, no override', async () => {
    const db = await freshDb()
    const { runLimits: _limits, priceOverrides: _prices, ...before } = withOpenAi()
    await db.settings.put({ id: 'app', value: before })
    const { settings, notes } = await loadSettings(db)
    expect(notes).toEqual([])
    expect(settings.runLimits).toEqual({})
    expect(settings.priceOverrides).toEqual([])
    expect(settings.providers.map((p) => p.id)).toEqual(['demo', 'openai'])
  })

  it('a bad price override costs only the overrides, not the rest of the stored settings', async () => {
    const db = await freshDb()
    const bad = { provider: 'openai', model: '', inputUsdPerMTok: -1, outputUsdPerMTok: 1 }
    await db.settings.put({ id: 'app', value: { ...withOpenAi(), priceOverrides: [bad] } })
    const { settings, notes } = await loadSettings(db)
    expect(settings.priceOverrides).toEqual([])
    expect(settings.providers.map((p) => p.id)).toEqual(['demo', 'openai'])
    expect(notes).toEqual(['priceOverrides: invalid, default used'])
  })

  it('refuses to save invalid settings and keeps the stored ones', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi())
    await expect(saveSettings(db, { ...withOpenAi(), runHistoryPerFlow: 0 })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    })
    expect((await loadSettings(db)).settings.runHistoryPerFlow).toBe(defaultSettings().runHistoryPerFlow)
  })

  it('drops the key of a removed provider, and keeps existing keys on request', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi())
    await saveSettings(db, withOpenAi(''), { keepExistingWhenEmpty: true })
    expect((await loadSettings(db)).settings.providers[1]?.apiKey).toBe(KEY)
    await saveSettings(db, defaultSettings())
    expect(await db.secrets.get('keys')).toEqual({ id: 'keys', state: 'plain', providers: [] })
  })
})

describe('key locking', () => {
  it('damaged locked keys read as locked instead of stopping the app from opening', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi(''))
    await db.secrets.put({ id: 'keys', state: 'locked', envelope: { kdf: 'nope' } as never })
    const loaded = await loadSettings(db)
    expect(loaded.locked).toBe(true)
    expect(loaded.notes).toEqual([expect.stringMatching(/^keys: .*damaged/)])
    await expect(unlockSecrets(db, 'any passphrase')).rejects.toMatchObject({ code: 'STORAGE_FAILED' })
  })

  it('encrypts keys at rest; unlocking decrypts for the session only; a wrong passphrase changes nothing', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi(KEY, [{ key: 'Authorization', value: 'Bearer tok-999' }]))
    expect(await isLocked(db)).toBe(false)
    await lockSecrets(db, 'correct horse battery')
    expect(await isLocked(db)).toBe(true)
    const atRest = JSON.stringify(await db.secrets.toArray()) + JSON.stringify(await db.settings.toArray())
    expect(atRest).not.toContain(KEY)
    expect(atRest).not.toContain('tok-999')

    const locked = await loadSettings(db)
    expect(locked.locked).toBe(true)
    expect(locked.settings.providers[1]?.apiKey).toBe('')

    const before = await db.secrets.get('keys')
    await expect(unlockSecrets(db, 'wrong horse battery')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' })
    expect(await db.secrets.get('keys')).toEqual(before)

    const session = await unlockSecrets(db, 'correct horse battery')
    const unlocked = await loadSettings(db, session)
    expect(unlocked.locked).toBe(false)
    expect(unlocked.settings.providers[1]?.apiKey).toBe(KEY)
    expect(unlocked.settings.providers[1]?.headers).toEqual([
      { key: 'Authorization', value: 'Bearer tok-999' },
    ])
    expect(await isLocked(db)).toBe(true)
  })

  it('while locked: other settings save without a session, key changes need one and stay encrypted', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi())
    const session = await lockSecrets(db, 'passphrase-1')
    const { settings } = await loadSettings(db)
    await saveSettings(db, { ...settings, theme: 'dark' })
    expect((await loadSettings(db, session)).settings).toMatchObject({ theme: 'dark' })
    expect((await loadSettings(db, session)).settings.providers[1]?.apiKey).toBe(KEY)

    await expect(saveSettings(db, withOpenAi('sk-new-key-0000000'))).rejects.toMatchObject({
      code: 'KEY_LOCKED',
    })
    await saveSettings(db, withOpenAi('sk-new-key-0000000'), { session })
    expect(JSON.stringify(await db.secrets.toArray())).not.toContain('sk-new-key-0000000')
    const fresh = await unlockSecrets(db, 'passphrase-1')
    expect(fresh.secrets[0]?.apiKey).toBe('sk-new-key-0000000')
  })

  it('removing the lock stores keys in plain text again; locking twice or with a short passphrase is refused', async () => {
    const db = await freshDb()
    await saveSettings(db, withOpenAi())
    await expect(lockSecrets(db, 'short')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' })
    await lockSecrets(db, 'passphrase-2')
    await expect(lockSecrets(db, 'passphrase-2')).rejects.toMatchObject({ code: 'KEY_LOCKED' })
    await expect(removeSecretsLock(db, 'passphrase-x')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' })
    expect(await removeSecretsLock(db, 'passphrase-2')).toEqual([
      { providerId: 'openai', apiKey: KEY, headers: [] },
    ])
    expect(await isLocked(db)).toBe(false)
    expect((await loadSettings(db)).settings.providers[1]?.apiKey).toBe(KEY)
  })
})
