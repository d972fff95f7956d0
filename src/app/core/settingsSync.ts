/**
 * Settings between the store and storage, without the settings screen: loads the stored
 * settings (and whether keys are locked) into the store, saves changes and applies the
 * language, and persists what the header changes straight in the store (language, theme).
 * It is part of the app core, so autosave and runs see stored settings while the settings
 * screen's code (providers, exports, danger zone) loads only when the screen opens. Storage is
 * reached through its own chunk (loadStorage.ts), never imported from here.
 */
import type { StoreApi } from 'zustand'
import { changeLanguage } from '../../i18n/index.ts'
import type { AppSettings, Language } from '../../settings/schema.ts'
import { settingsStore as defaultSettingsStore, type SettingsState } from '../../store/settingsStore.ts'
import type { SettingsUiState } from '../../store/settingsUiStore.ts'
import { dbGetter, type DbSource } from './databaseService.ts'
import { createKeyService, type KeyService } from './keyService.ts'
import type { SettingsChannel } from './settingsChannel.ts'
import { loadStorage } from './loadStorage.ts'

export interface SettingsSyncDeps {
  db: DbSource
  applyLanguage?(language: Language): Promise<void>
  settingsStore?: StoreApi<SettingsState>
  ui?: StoreApi<SettingsUiState>
  /** Cross-tab notices (openSettingsChannel); none in tests unless they pass one. */
  channel?: SettingsChannel | null
}

export interface SettingsSync {
  /** Whether keys are locked, the session's unlocked keys and the passphrase prompt. */
  keys: KeyService
  current(): AppSettings
  /** Loads stored settings and the lock state into the store; call once at start. */
  load(): Promise<string[]>
  /** Reads settings back from storage (keys filled in while readable); returns restore notes. */
  reload(): Promise<string[]>
  /** Saves settings (validated; refused settings change nothing) and applies them. */
  save(settings: AppSettings): Promise<void>
  /**
   * Persists changes made straight in the settings store (only the fields that changed, onto
   * the stored row), and reloads when another tab saved; returns the unsubscribe function.
   */
  watchStore(onError: (error: unknown) => void): () => void
  /** Tells other tabs that the stored settings (or keys) changed; call after every write. */
  announce(): void
}

/** Top-level fields the header changes straight in the store (language select, theme toggle). */
const STORE_FIELDS = ['language', 'theme'] as const

export function createSettingsSync(deps: SettingsSyncDeps): SettingsSync {
  const store = deps.settingsStore ?? defaultSettingsStore
  const db = dbGetter(deps.db)
  const applyLanguage = deps.applyLanguage ?? changeLanguage
  const current = (): AppSettings => store.getState().settings
  /** The settings object last written to or read from storage: the store watcher skips it. */
  let persisted: AppSettings | undefined

  async function publish(settings: AppSettings): Promise<void> {
    const before = current().language
    persisted = settings
    store.getState().setSettings(settings)
    if (settings.language !== before || !store.getState().loaded) await applyLanguage(settings.language)
  }

  async function reload(): Promise<string[]> {
    const storage = await loadStorage()
    const loaded = await storage.loadSettings(await db(), keys.session())
    const before = current().language
    persisted = loaded.settings
    store.getState().setSettings(loaded.settings)
    if (loaded.settings.language !== before) await applyLanguage(loaded.settings.language)
    return loaded.notes
  }

  const announce = (): void => deps.channel?.announce()

  const keys: KeyService = createKeyService({
    db: deps.db,
    ...(deps.ui ? { ui: deps.ui } : {}),
    onKeysChanged: async () => {
      await reload()
      announce()
    },
  })

  return {
    keys,
    current,
    async load() {
      await keys.refresh()
      const notes = await reload()
      await applyLanguage(current().language)
      return notes
    },
    reload,
    announce,
    async save(settings) {
      const storage = await loadStorage()
      await storage.saveSettings(await db(), settings, { session: keys.session() })
      await publish(settings)
      announce()
    },
    watchStore(onError) {
      let queue = Promise.resolve()
      const unsubscribe = store.subscribe((state) => {
        if (!state.loaded || state.settings === persisted) return
        const before = persisted
        const next = state.settings
        persisted = next
        const patch = STORE_FIELDS.filter((f) => before === undefined || before[f] !== next[f])
        // One write at a time, in order: two quick toggles must not land out of order. Only the
        // changed fields go onto the stored row: this tab's copy of the rest may be stale (an
        // import in another tab), and writing it back would undo that import.
        queue = queue
          .then(async () => {
            const storage = await loadStorage()
            const stored = await storage.loadSettings(await db(), keys.session())
            const merged = { ...stored.settings }
            for (const f of patch) Object.assign(merged, { [f]: next[f] })
            await storage.saveSettings(await db(), merged, { session: keys.session() })
            announce()
          })
          .catch(onError)
      })
      // Another tab saved: read the stored settings (and lock state) again, after our own writes.
      const unlisten = deps.channel?.listen(() => {
        queue = queue
          .then(async () => {
            await keys.refresh()
            await reload()
          })
          .catch(onError)
      })
      return () => {
        unsubscribe()
        unlisten?.()
      }
    },
  }
}
