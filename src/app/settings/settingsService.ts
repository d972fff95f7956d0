/**
 * What the settings screen does (providers, keys and their lock, exports, danger zone), on top
 * of the settings sync (settingsSync.ts: load, save, apply, persist header changes), which the
 * app core owns so stored settings apply before this screen's code loads.
 * Keys are read and written only here, in settingsSync.ts and in keyService.ts.
 */
import type { StoreApi } from 'zustand'
import { PROVIDER_REQUEST_TIMEOUT_MS } from '../../defaults.ts'
import type { FetchLike } from '../../engine/index.ts'
import { listModels, testConnection } from '../../providers/index.ts'
import type { AppSettings, Language, ProviderSettings } from '../../settings/schema.ts'
import { putCache, saveSettings, secretValues, splitSecrets } from '../../storage/index.ts'
import { flowStore as defaultFlowStore, type FlowStore } from '../../store/flowStore.ts'
import { libraryStore as defaultLibrary, type LibraryState } from '../../store/libraryStore.ts'
import type { SettingsState } from '../../store/settingsStore.ts'
import type { SettingsPanelApi } from '../../ui/settings/api.ts'
import { settingsUiStore, type SettingsUiState } from '../../store/settingsUiStore.ts'
import { createDangerService } from './dangerService.ts'
import { dbGetter, type DbSource } from '../core/databaseService.ts'
import { browserDownload, type Downloader } from '../core/downloadService.ts'
import type { KeyService } from '../core/keyService.ts'
import type { FlowsService, SettingsService } from '../../ui/services.ts'
import { createSettingsExportService } from './settingsExportService.ts'
import { createSettingsSync, type SettingsSync } from '../core/settingsSync.ts'

export { requestPassphrase } from '../core/keyService.ts'

export interface SettingsServiceDeps {
  db: DbSource
  fetch: FetchLike
  /** Used by "delete all flows" to open a fresh empty flow. */
  flows: FlowsService
  now?(): number
  download?: Downloader
  applyLanguage?(language: Language): Promise<void>
  /** Called after the danger zone cleared run history. */
  afterRunsCleared?(): Promise<void> | void
  /** The app core's settings sync; tests leave it out and get one of their own over `db`. */
  sync?: SettingsSync
  settingsStore?: StoreApi<SettingsState>
  ui?: StoreApi<SettingsUiState>
  flowStore?: FlowStore
  library?: StoreApi<LibraryState>
}

export interface AppSettingsService {
  /** For the toolbar's `open-settings`. */
  settings: SettingsService
  /** For the settings screen (AppServices.settingsPanel). */
  panel: SettingsPanelApi
  /** For runs: whether keys are locked, and the passphrase prompt that unlocks them. */
  keys: KeyService
  /** Loads stored settings and the lock state into the store; call once at start. */
  load(): Promise<string[]>
  /** Saves settings (validated; refused settings change nothing) and applies them. */
  save(settings: AppSettings): Promise<void>
  /**
   * Persists changes other parts of the UI make straight in the settings store (the header's
   * language select and theme toggle). Returns the unsubscribe function.
   */
  watchStore(onError: (error: unknown) => void): () => void
}

/** Replaces every stored secret value in `text` (a server may echo a key in an error). */
function scrub(text: string, provider: ProviderSettings): string {
  const secrets = secretValues(splitSecrets({ providers: [provider] } as AppSettings).secrets)
  return secrets.reduce((out, secret) => out.split(secret).join('••••'), text)
}

export function createSettingsService(deps: SettingsServiceDeps): AppSettingsService {
  const sync =
    deps.sync ??
    createSettingsSync({
      db: deps.db,
      ...(deps.applyLanguage ? { applyLanguage: deps.applyLanguage } : {}),
      ...(deps.settingsStore ? { settingsStore: deps.settingsStore } : {}),
      ...(deps.ui ? { ui: deps.ui } : {}),
    })
  const db = dbGetter(deps.db)
  const ui = deps.ui ?? settingsUiStore
  const now = deps.now ?? (() => Date.now())
  const { keys, current, reload, save } = sync

  const signal = (): AbortSignal => AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS)

  const exportsApi = createSettingsExportService({
    db: deps.db,
    keys,
    ui,
    download: deps.download ?? browserDownload,
    now,
    current,
    applyImported: async (settings) => {
      const report = await saveSettings(await db(), settings, {
        session: keys.session(),
        keepExistingWhenEmpty: true,
      })
      await reload()
      sync.announce()
      return report
    },
  })

  const dangerApi = createDangerService({
    db: deps.db,
    flows: deps.flows,
    flowStore: deps.flowStore ?? defaultFlowStore,
    library: deps.library ?? defaultLibrary,
    current,
    afterRunsCleared: deps.afterRunsCleared,
    refreshExports: exportsApi.refreshExports,
    afterSettingsReset: async () => {
      await keys.forget()
      await reload()
      sync.announce()
    },
  })

  const panel: SettingsPanelApi = {
    save,
    async listModels(provider) {
      try {
        const models = await listModels(provider, deps.fetch, signal())
        // A cache row lets "clear cache" account for it; failing to write it changes nothing.
        await putCache(await db(), `models:${provider.id}`, 'models', models, now()).catch(() => undefined)
        return models
      } catch (error) {
        if (error instanceof Error) error.message = scrub(error.message, provider)
        throw error
      }
    },
    async testConnection(provider) {
      const result = await testConnection(provider, deps.fetch, signal())
      return { ...result, message: scrub(result.message, provider) }
    },
    async testMcpServer(server) {
      // The check and the SDK load on the first test only.
      const { checkMcpServer } = await import('../../mcp/diagnose.ts')
      const headers = Object.fromEntries(
        server.headers.filter((h) => h.key.trim() !== '').map((h) => [h.key.trim(), h.value]),
      )
      const result = await checkMcpServer({ url: server.url, headers, fetch: deps.fetch })
      // A server's words may echo a header it was sent: never show its values.
      const values = Object.values(headers).filter((v) => v !== '')
      const clean = (text: string): string => values.reduce((out, v) => out.split(v).join('[secret]'), text)
      if (result.ok) return result
      return 'detail' in result ? { ...result, detail: clean(result.detail) } : result
    },
    lockKeys: (passphrase) => keys.lock(passphrase),
    unlockKeys: (passphrase) => keys.unlock(passphrase),
    removeKeyLock: (passphrase) => keys.removeLock(passphrase),
    ...exportsApi,
    ...dangerApi,
  }

  return {
    settings: {
      open: () => ui.getState().openSettings(),
      async checkMcpServer(id) {
        const server = current().mcpServers.find((s) => s.id === id)
        return server === undefined ? undefined : panel.testMcpServer(server)
      },
    },
    panel,
    keys,
    load: () => sync.load(),
    save,
    watchStore: (onError) => sync.watchStore(onError),
  }
}
