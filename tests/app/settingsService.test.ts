import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadSettings, isLocked } from '../../src/storage/index.ts'
import { defaultSettings, type AppSettings } from '../../src/settings/schema.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { settingsUiStore } from '../../src/store/settingsUiStore.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { freshDb } from '../storage/support.ts'
import { answerPassphrases, resetStores, settingsServiceFor } from './settingsSupport.ts'

const PASS = 'correct horse battery'

async function waitFor(check: () => Promise<void>): Promise<void> {
  await vi.waitFor(check, { timeout: 2_000 })
}

function withOpenAi(settings: AppSettings, baseUrl: string, apiKey: string): AppSettings {
  return {
    ...settings,
    providers: [
      ...settings.providers,
      {
        id: 'mock',
        label: 'Mock',
        kind: 'openai',
        baseUrl,
        model: 'mock-model',
        models: [],
        apiKey,
        stream: true,
        headers: [],
      },
    ],
  }
}

beforeEach(resetStores)

describe('settings service: load and save', () => {
  it('loads defaults on a fresh database and marks the store loaded', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    await service.load()
    expect(settingsStore.getState().loaded).toBe(true)
    expect(settingsStore.getState().settings).toEqual(defaultSettings())
    expect(settingsUiStore.getState().keyState).toBe('plain')
  })

  it('saves settings to IndexedDB and applies them to the store at once', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    await service.load()
    const next = { ...settingsStore.getState().settings, theme: 'dark' as const, autosaveDelayMs: 1500 }
    await service.panel.save(next)
    expect(settingsStore.getState().settings.theme).toBe('dark')
    expect((await loadSettings(db)).settings.autosaveDelayMs).toBe(1500)
  })

  it('refuses out-of-range settings without saving or applying anything', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    await service.load()
    const before = settingsStore.getState().settings
    const bad = { ...before, runtimeProtection: { ...before.runtimeProtection, loopDetectionThreshold: 11 } }
    await expect(service.panel.save(bad)).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    expect(settingsStore.getState().settings).toBe(before)
    expect((await loadSettings(db)).settings.runtimeProtection.loopDetectionThreshold).toBe(3)
  })

  it('switches the UI language through the language hook when the language changes', async () => {
    const db = await freshDb()
    const applied: string[] = []
    const { createSettingsService } = await import('../../src/app/settings/settingsService.ts')
    const service = createSettingsService({
      db,
      fetch,
      flows: (await import('./settingsSupport.ts')).fakeFlows(),
      applyLanguage: async (language) => void applied.push(language),
    })
    await service.load()
    await service.save({ ...settingsStore.getState().settings, language: 'zh-CN' })
    expect(applied.at(-1)).toBe('zh-CN')
  })
})

describe('settings service: changes made straight in the store', () => {
  it('persists the header language and theme choices once loaded, in order', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    // Before load (first paint), store updates are not written: stored settings win.
    settingsStore.getState().update({ theme: 'dark' })
    await service.load()
    expect(settingsStore.getState().settings.theme).toBe('light')
    const errors: unknown[] = []
    const stop = service.watchStore((error) => errors.push(error))
    settingsStore.getState().update({ language: 'zh-CN' })
    settingsStore.getState().update({ theme: 'dark' })
    await waitFor(async () => {
      const stored = (await loadSettings(db)).settings
      expect([stored.language, stored.theme]).toEqual(['zh-CN', 'dark'])
    })
    stop()
    settingsStore.getState().update({ theme: 'light' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await loadSettings(db)).settings.theme).toBe('dark')
    expect(errors).toEqual([])
  })
})

describe('settings service: provider connection', () => {
  let mock: MockOpenAiServer
  beforeEach(async () => {
    mock = await startMockOpenAiServer({ apiKey: 'sk-test-secret-123456' })
  })
  afterEach(async () => {
    await mock.close()
  })

  it('lists the models of a real OpenAI-compatible server and caches the list', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    const provider = withOpenAi(defaultSettings(), mock.baseUrl, 'sk-test-secret-123456').providers[1]!
    expect(await service.panel.listModels(provider)).toEqual(['mock-model', 'mock-model-large'])
    expect(await db.caches.get('models:mock')).toMatchObject({ kind: 'models' })
  })

  it('reports a refused key in words and never repeats the key', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    const provider = withOpenAi(defaultSettings(), mock.baseUrl, 'sk-wrong-key-987654').providers[1]!
    const result = await service.panel.testConnection(provider)
    expect(result.ok).toBe(false)
    expect(result.code).toBe('PROVIDER_AUTH')
    expect(result.message).not.toContain('sk-wrong-key-987654')
  })

  it('says how many models a working connection offers', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    const provider = withOpenAi(defaultSettings(), mock.baseUrl, 'sk-test-secret-123456').providers[1]!
    const result = await service.panel.testConnection(provider)
    expect(result).toMatchObject({ ok: true, models: ['mock-model', 'mock-model-large'] })
  })
})

describe('settings service: key lock', () => {
  it('locks keys, keeps this session unlocked, and asks for the passphrase after a restart', async () => {
    const db = await freshDb()
    const first = settingsServiceFor(db)
    await first.load()
    await first.save(
      withOpenAi(settingsStore.getState().settings, 'http://127.0.0.1:9/v1', 'sk-live-abcdef123456'),
    )
    await first.panel.lockKeys(PASS)
    expect(await isLocked(db)).toBe(true)
    expect(settingsUiStore.getState().keyState).toBe('unlocked')
    expect(first.keys.isLocked()).toBe(false)
    expect(JSON.stringify(await db.secrets.toArray())).not.toContain('sk-live-abcdef123456')

    // A new tab: the keys are locked and the store holds none of them.
    resetStores()
    const second = settingsServiceFor(db)
    await second.load()
    expect(second.keys.isLocked()).toBe(true)
    expect(settingsUiStore.getState().keyState).toBe('locked')
    expect(settingsStore.getState().settings.providers[1]?.apiKey).toBe('')

    // A run needs the key: a wrong passphrase is refused, the right one unlocks.
    const person = answerPassphrases(['not the passphrase', PASS])
    expect(await second.keys.requestUnlock()).toBe(true)
    person.stop()
    expect(person.refusals).toHaveLength(1)
    expect(person.refusals[0]).toMatchObject({ code: 'WRONG_PASSPHRASE' })
    expect(settingsStore.getState().settings.providers[1]?.apiKey).toBe('sk-live-abcdef123456')
    expect(settingsUiStore.getState().keyState).toBe('unlocked')
    // Unlocking changed nothing at rest.
    expect(await isLocked(db)).toBe(true)
  }, 30_000)

  it('resolves false and stays locked when the person cancels the prompt', async () => {
    const db = await freshDb()
    const first = settingsServiceFor(db)
    await first.load()
    await first.panel.lockKeys(PASS)
    resetStores()
    const second = settingsServiceFor(db)
    await second.load()
    const person = answerPassphrases([null])
    expect(await second.keys.requestUnlock()).toBe(false)
    person.stop()
    expect(second.keys.isLocked()).toBe(true)
  }, 30_000)

  it('saves a key change while unlocked encrypted, and removes the lock with the passphrase', async () => {
    const db = await freshDb()
    const service = settingsServiceFor(db)
    await service.load()
    await service.panel.lockKeys(PASS)
    await service.save(
      withOpenAi(settingsStore.getState().settings, 'http://127.0.0.1:9/v1', 'sk-new-key-000111222'),
    )
    expect(JSON.stringify(await db.secrets.toArray())).not.toContain('sk-new-key-000111222')
    await expect(service.panel.removeKeyLock('wrong passphrase')).rejects.toMatchObject({
      code: 'WRONG_PASSPHRASE',
    })
    expect(await isLocked(db)).toBe(true)
    await service.panel.removeKeyLock(PASS)
    expect(await isLocked(db)).toBe(false)
    expect(settingsUiStore.getState().keyState).toBe('plain')
    expect((await loadSettings(db)).settings.providers[1]?.apiKey).toBe('sk-new-key-000111222')
  }, 30_000)

  it('requestPassphrase opens the dialog and returns what was typed', async () => {
    const { requestPassphrase } = await import('../../src/app/settings/settingsService.ts')
    const pending = requestPassphrase()
    const request = settingsUiStore.getState().passphrase
    expect(request?.purpose).toBe('unlockForRun')
    settingsUiStore.getState().answerPassphrase(request!.id, 'typed')
    expect(await pending).toBe('typed')
  })
})
