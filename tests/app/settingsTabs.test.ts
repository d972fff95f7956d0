/**
 * Two tabs, one set of stored settings: a tab that changes its language or theme writes only
 * that field (never its stale copy of the providers over an import made in another tab), and a
 * tab hears when another one saved and reads the settings again.
 */
import { describe, expect, it } from 'vitest'
import type { SettingsChannel } from '../../src/app/core/settingsChannel.ts'
import { createSettingsSync } from '../../src/app/core/settingsSync.ts'
import { loadSettings } from '../../src/storage/index.ts'
import type { ProviderSettings } from '../../src/settings/schema.ts'
import { createSettingsStore } from '../../src/store/settingsStore.ts'
import { createSettingsUiStore } from '../../src/store/settingsUiStore.ts'
import { freshDb } from '../storage/support.ts'

/** Channels of several tabs that deliver each announcement to the other tabs, like BroadcastChannel. */
function channels(count: number): SettingsChannel[] {
  const listeners: Array<Set<() => void>> = Array.from({ length: count }, () => new Set())
  return listeners.map((own) => ({
    announce: () => {
      for (const other of listeners) if (other !== own) for (const l of other) setTimeout(l, 0)
    },
    listen(onChange) {
      own.add(onChange)
      return () => void own.delete(onChange)
    },
    close: () => own.clear(),
  }))
}

const moved: ProviderSettings = {
  id: 'work',
  label: 'Work',
  kind: 'openai',
  baseUrl: 'https://new.example.test/v1',
  model: 'm',
  models: [],
  apiKey: '',
  stream: true,
  headers: [],
}

async function tab(db: Awaited<ReturnType<typeof freshDb>>, channel: SettingsChannel | null) {
  const store = createSettingsStore()
  const sync = createSettingsSync({
    db,
    channel,
    settingsStore: store,
    ui: createSettingsUiStore(),
    applyLanguage: async () => {},
  })
  await sync.load()
  const errors: unknown[] = []
  const stop = sync.watchStore((e) => errors.push(e))
  return { store, sync, errors, stop }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

describe('settings in two tabs', () => {
  it("a theme toggle in a stale tab does not undo another tab's change of a provider", async () => {
    const db = await freshDb()
    const a = await tab(db, null)
    const b = await tab(db, null)
    const old = { ...moved, baseUrl: 'https://old.example.test/v1' }
    await a.sync.save({
      ...a.store.getState().settings,
      providers: [...a.store.getState().settings.providers, old],
    })
    await b.sync.reload()
    await a.sync.save({
      ...a.store.getState().settings,
      providers: [a.store.getState().settings.providers[0]!, moved],
    })
    // Tab b never heard of it (no channel) and toggles its theme.
    b.store.getState().update({ theme: 'dark' })
    await settle()
    const stored = (await loadSettings(db)).settings
    expect(stored.theme).toBe('dark')
    expect(stored.providers.find((p) => p.id === 'work')?.baseUrl).toBe('https://new.example.test/v1')
    expect(b.errors).toEqual([])
    a.stop()
    b.stop()
  })

  it('a tab reads the settings again when another tab saved them', async () => {
    const db = await freshDb()
    const [ca, cb] = channels(2)
    const a = await tab(db, ca!)
    const b = await tab(db, cb!)
    await a.sync.save({
      ...a.store.getState().settings,
      providers: [...a.store.getState().settings.providers, moved],
    })
    await settle()
    expect(b.store.getState().settings.providers.find((p) => p.id === 'work')?.baseUrl).toBe(
      'https://new.example.test/v1',
    )
    a.stop()
    b.stop()
  })
})
