/**
 * A settings file must never take a stored key elsewhere: a sanitized import keeps a provider's
 * stored key and secret headers only while its base URL keeps the stored origin, and says which
 * keys it dropped (with both addresses). An import that says it applied did apply.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../src/storage/index.ts'
import type { AppSettings, ProviderSettings } from '../../src/settings/schema.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { freshDb } from '../storage/support.ts'
import { answerPassphrases, downloads, resetStores, settingsServiceFor } from './settingsSupport.ts'

const KEY = 'sk-proj-Origin123Def456Ghi789'
const HEADER_TOKEN = 'tok_live_origin_5550001111'
const PASS = 'lock passphrase 42'

const work: ProviderSettings = {
  id: 'work',
  label: 'Work',
  kind: 'openai',
  baseUrl: 'https://api.example.test/v1',
  model: 'm-1',
  models: [],
  apiKey: KEY,
  stream: true,
  headers: [
    { key: 'X-Api-Token', value: HEADER_TOKEN },
    { key: 'X-Team', value: 'research' },
  ],
}

function asFile(text: string, name = 'shared.wardflow-settings.json'): File {
  return new File([text], name, { type: 'application/json' })
}

/** A service with `work` stored, and its sanitized export as an object to edit. */
async function setUp() {
  const db = await freshDb()
  const files = downloads()
  const service = settingsServiceFor(db, { files })
  await service.load()
  await service.save({
    ...settingsStore.getState().settings,
    providers: [...settingsStore.getState().settings.providers, work],
  })
  await service.panel.exportSanitized()
  const file = JSON.parse(files.files[0]!.text) as { settings: AppSettings }
  const provider = (f: { settings: AppSettings }) => f.settings.providers.find((p) => p.id === 'work')!
  return { db, service, file, provider }
}

beforeEach(resetStores)

describe('sanitized import and the origin of stored keys', () => {
  it('drops the stored key and secret header of a provider the file moves to another host, and names both hosts', async () => {
    const { db, service, file, provider } = await setUp()
    provider(file).baseUrl = 'https://collect.attacker.test/v1'
    const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file)))
    expect(outcome).toMatchObject({
      status: 'imported',
      keptKeysFor: [],
      droppedKeys: [
        { providerId: 'work', from: 'https://api.example.test', to: 'https://collect.attacker.test' },
      ],
    })
    const stored = (await loadSettings(db)).settings.providers.find((p) => p.id === 'work')!
    expect(stored.baseUrl).toBe('https://collect.attacker.test/v1')
    expect(stored.apiKey).toBe('')
    expect(stored.headers).toEqual([
      { key: 'X-Api-Token', value: '' },
      { key: 'X-Team', value: 'research' },
    ])
    expect(JSON.stringify(settingsStore.getState().settings)).not.toContain(KEY)
  })

  it('a port or scheme change is another origin too', async () => {
    for (const url of ['https://api.example.test:8443/v1', 'http://api.example.test/v1']) {
      resetStores()
      const { db, service, file, provider } = await setUp()
      provider(file).baseUrl = url
      const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file)))
      expect(outcome).toMatchObject({ status: 'imported', droppedKeys: [{ providerId: 'work' }] })
      expect((await loadSettings(db)).settings.providers.find((p) => p.id === 'work')?.apiKey).toBe('')
    }
  })

  it('keeps the key when only the path changes, or the host is spelt in capitals with its default port', async () => {
    const { db, service, file, provider } = await setUp()
    provider(file).baseUrl = 'HTTPS://API.EXAMPLE.TEST:443/v2/'
    const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file)))
    expect(outcome).toMatchObject({ status: 'imported', keptKeysFor: ['work'], droppedKeys: [] })
    const stored = (await loadSettings(db)).settings.providers.find((p) => p.id === 'work')!
    expect(stored.apiKey).toBe(KEY)
    expect(stored.headers[0]?.value).toBe(HEADER_TOKEN)
  })

  it('while keys are locked, a move asks for the passphrase first; cancelling changes nothing', async () => {
    const { db, service, file, provider } = await setUp()
    await service.panel.lockKeys(PASS)
    resetStores()
    const again = settingsServiceFor(db)
    await again.load()
    provider(file).baseUrl = 'https://collect.attacker.test/v1'
    const before = await loadSettings(db)
    const cancel = answerPassphrases([null])
    expect(await again.panel.importSettingsFile(asFile(JSON.stringify(file)))).toEqual({
      status: 'cancelled',
    })
    cancel.stop()
    expect(await loadSettings(db)).toEqual(before)

    const unlock = answerPassphrases([PASS])
    const outcome = await again.panel.importSettingsFile(asFile(JSON.stringify(file)))
    unlock.stop()
    expect(outcome).toMatchObject({ status: 'imported', droppedKeys: [{ providerId: 'work' }] })
    const session = again.keys
    expect(session.isLocked()).toBe(false)
    const stored = settingsStore.getState().settings.providers.find((p) => p.id === 'work')!
    expect(stored.baseUrl).toBe('https://collect.attacker.test/v1')
    expect(stored.apiKey).toBe('')
  })

  it('refuses a file with two providers of one id (the first would win and the import would change nothing that runs)', async () => {
    const { db, service, file, provider } = await setUp()
    file.settings.providers.push({ ...provider(file), baseUrl: 'https://other.test/v1' })
    const before = await loadSettings(db)
    const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file)))
    expect(outcome.status).toBe('refused')
    expect(outcome.status === 'refused' ? outcome.message : '').toContain('settings.providers[2].id')
    expect(await loadSettings(db)).toEqual(before)
  })
})
