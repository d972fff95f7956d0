import { beforeEach, describe, expect, it } from 'vitest'
import { listExports, loadSettings } from '../../src/storage/index.ts'
import type { AppSettings } from '../../src/settings/schema.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { settingsUiStore } from '../../src/store/settingsUiStore.ts'
import { freshDb } from '../storage/support.ts'
import { answerPassphrases, downloads, resetStores, settingsServiceFor } from './settingsSupport.ts'

const KEY = 'sk-proj-Abc123Def456Ghi789'
const HEADER_TOKEN = 'tok_live_5550001111'
const PASS = 'export passphrase 42'

function withSecrets(settings: AppSettings): AppSettings {
  return {
    ...settings,
    providers: [
      ...settings.providers,
      {
        id: 'openai',
        label: 'OpenAI',
        kind: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        models: [],
        apiKey: KEY,
        stream: true,
        headers: [
          { key: 'X-Api-Token', value: HEADER_TOKEN },
          { key: 'X-Team', value: 'research' },
        ],
      },
    ],
  }
}

function asFile(text: string, name: string): File {
  return new File([text], name, { type: 'application/json' })
}

beforeEach(resetStores)

describe('settings export', () => {
  it('sanitized: downloads a file without any secret, lists the redacted paths and records it', async () => {
    const db = await freshDb()
    const files = downloads()
    const service = settingsServiceFor(db, { files })
    await service.load()
    await service.save(withSecrets(settingsStore.getState().settings))
    const result = await service.panel.exportSanitized()
    expect(files.files).toHaveLength(1)
    const text = files.files[0]!.text
    expect(files.files[0]!.fileName).toMatch(/\.wardflow-settings\.json$/)
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(HEADER_TOKEN)
    expect(text).toContain('research')
    expect(result.redacted).toEqual(
      expect.arrayContaining(['settings.providers[1].apiKey', 'settings.providers[1].headers[0].value']),
    )
    const listed = await listExports(db)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ kind: 'sanitized', fileName: result.fileName })
    expect(settingsUiStore.getState().exports).toEqual(listed)
  })

  it('full: the file holds no plaintext secret and restores every key on another machine', async () => {
    const source = await freshDb()
    const files = downloads()
    const first = settingsServiceFor(source, { files })
    await first.load()
    await first.save(withSecrets(settingsStore.getState().settings))
    await first.panel.exportFull(PASS)
    const text = files.files[0]!.text
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(HEADER_TOKEN)
    expect((await listExports(source))[0]?.kind).toBe('full')

    resetStores()
    const target = await freshDb()
    const second = settingsServiceFor(target)
    await second.load()
    const person = answerPassphrases(['a wrong passphrase', PASS])
    const outcome = await second.panel.importSettingsFile(asFile(text, 'moved.wardflow-settings.json'))
    person.stop()
    expect(person.refusals[0]).toMatchObject({ code: 'WRONG_PASSPHRASE' })
    expect(outcome).toMatchObject({ status: 'imported', kind: 'full' })
    const stored = (await loadSettings(target)).settings.providers.find((p) => p.id === 'openai')
    expect(stored?.apiKey).toBe(KEY)
    expect(stored?.headers[0]).toEqual({ key: 'X-Api-Token', value: HEADER_TOKEN })
    expect(settingsStore.getState().settings.providers.find((p) => p.id === 'openai')?.apiKey).toBe(KEY)
  }, 30_000)

  it('full import: cancelling the passphrase changes nothing', async () => {
    const source = await freshDb()
    const files = downloads()
    const first = settingsServiceFor(source, { files })
    await first.load()
    await first.save({ ...withSecrets(settingsStore.getState().settings), theme: 'dark' })
    await first.panel.exportFull(PASS)

    resetStores()
    const target = await freshDb()
    const second = settingsServiceFor(target)
    await second.load()
    const before = await loadSettings(target)
    const person = answerPassphrases([null])
    const outcome = await second.panel.importSettingsFile(asFile(files.files[0]!.text, 'x.json'))
    person.stop()
    expect(outcome).toEqual({ status: 'cancelled' })
    expect(await loadSettings(target)).toEqual(before)
  }, 30_000)

  it('refuses a damaged file with the reason and its path, and changes nothing', async () => {
    const db = await freshDb()
    const files = downloads()
    const service = settingsServiceFor(db, { files })
    await service.load()
    await service.save(withSecrets(settingsStore.getState().settings))
    await service.panel.exportSanitized()
    const file = JSON.parse(files.files[0]!.text) as {
      settings: { runtimeProtection: { maxIterations: number } }
    }
    file.settings.runtimeProtection.maxIterations = 500
    const before = await loadSettings(db)
    const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file), 'bad.json'))
    expect(outcome.status).toBe('refused')
    if (outcome.status === 'refused')
      expect(outcome.message).toContain('settings.runtimeProtection.maxIterations')
    expect(await loadSettings(db)).toEqual(before)

    const broken = await service.panel.importSettingsFile(
      asFile('{"format": "wardflow.settings", ', 'cut.json'),
    )
    expect(broken.status).toBe('refused')
    expect(await loadSettings(db)).toEqual(before)
  })

  it('sanitized import keeps the stored key of a provider with the same id and says so', async () => {
    const db = await freshDb()
    const files = downloads()
    const service = settingsServiceFor(db, { files })
    await service.load()
    await service.save(withSecrets(settingsStore.getState().settings))
    await service.panel.exportSanitized()
    const file = JSON.parse(files.files[0]!.text) as { settings: AppSettings }
    file.settings.theme = 'dark'
    const outcome = await service.panel.importSettingsFile(asFile(JSON.stringify(file), 'shared.json'))
    expect(outcome).toMatchObject({ status: 'imported', kind: 'sanitized', keptKeysFor: ['openai'] })
    const stored = (await loadSettings(db)).settings
    expect(stored.theme).toBe('dark')
    expect(stored.providers.find((p) => p.id === 'openai')?.apiKey).toBe(KEY)
  })

  it('lists exports newest first, downloads, restores and deletes an entry', async () => {
    const db = await freshDb()
    const files = downloads()
    let clock = 1_000
    const { createSettingsService } = await import('../../src/app/settings/settingsService.ts')
    const { fakeFlows } = await import('./settingsSupport.ts')
    const service = createSettingsService({
      db,
      fetch,
      flows: fakeFlows(),
      download: files.download,
      applyLanguage: async () => {},
      now: () => (clock += 1_000),
    })
    await service.load()
    await service.panel.exportSanitized()
    await service.save({ ...settingsStore.getState().settings, theme: 'dark' })
    await service.panel.exportSanitized()
    const [newest, oldest] = settingsUiStore.getState().exports
    expect(newest!.createdAt).toBeGreaterThan(oldest!.createdAt)

    await service.panel.downloadExport(oldest!.id)
    expect(files.files.at(-1)).toEqual({ fileName: oldest!.fileName, text: files.files[0]!.text })

    expect(settingsStore.getState().settings.theme).toBe('dark')
    const restored = await service.panel.restoreExport(oldest!.id)
    expect(restored).toMatchObject({ status: 'imported', kind: 'sanitized' })
    expect(settingsStore.getState().settings.theme).toBe('light')

    await service.panel.deleteExport(newest!.id)
    expect(settingsUiStore.getState().exports.map((e) => e.id)).toEqual([oldest!.id])
  })
})
