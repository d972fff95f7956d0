/**
 * What the settings screen asks app/ to do (app/settings/settingsService.ts implements it).
 * The screen never touches storage or providers itself; every method may throw a FlowError
 * whose `code` the screen turns into words (see errorText.ts).
 */
import type { MovedProvider } from '../../settings/origin.ts'
import type { McpCheck } from '../../mcp/diagnose.ts'
import type { AppSettings, McpServerSettings, ProviderSettings } from '../../settings/schema.ts'
import type { ExportEntry } from '../../store/settingsUiStore.ts'

export interface ConnectionResult {
  ok: boolean
  /** Plain English, shown when the catalogue has nothing better for `code`. */
  message: string
  models?: string[]
  code?: string
}

/** One recorded settings export: the shape lives with the screen's store, which holds the list. */
export type { ExportEntry }

/** What the danger zone dialogs say will go and what stays. */
export interface DangerCounts {
  flows: number
  runs: number
  exports: number
  caches: number
  /** Providers with a stored key (0 while locked: that count is encrypted too). */
  keys: number
  keysLocked: boolean
  providers: number
}

export interface ImportProblemText {
  path: string
  /** English (the fallback); `key` + `params` word it in the UI's language. */
  message: string
  key?: string
  params?: Record<string, string | number>
}

export type SettingsImportOutcome =
  | {
      status: 'imported'
      kind: 'sanitized' | 'full'
      /** Providers whose stored key was kept because the file had none (sanitized imports). */
      keptKeysFor: string[]
      /**
       * Providers the file points to another origin (scheme, host, port): their stored key and
       * secret headers were dropped, never sent to the new host.
       */
      droppedKeys: MovedProvider[]
      /** The file lacked the built-in demo provider (or gave its id another kind): it was put back. */
      demoRestored: boolean
      /** Fields of the file that were repaired or left out, as `path: reason`. */
      notes: string[]
    }
  | { status: 'cancelled' }
  | { status: 'refused'; message: string; problems: ImportProblemText[] }

export interface SettingsPanelApi {
  /** Validates and saves settings, then applies them live. Throws when refused (nothing saved). */
  save(settings: AppSettings): Promise<void>
  /** Fetches the model list of a provider as drafted in the form (its key included). */
  listModels(provider: ProviderSettings): Promise<string[]>
  testConnection(provider: ProviderSettings): Promise<ConnectionResult>
  /** Connects to an MCP server as drafted (its header values included) and lists its tools. */
  testMcpServer(server: McpServerSettings): Promise<McpCheck>

  /** Encrypts the stored keys with a passphrase; this session stays unlocked. */
  lockKeys(passphrase: string): Promise<void>
  /** Decrypts the keys into memory for this session. Wrong passphrase: WRONG_PASSPHRASE. */
  unlockKeys(passphrase: string): Promise<void>
  /** Stores the keys in plain form again. */
  removeKeyLock(passphrase: string): Promise<void>

  /** Reloads the list of earlier exports into the panel store. */
  refreshExports(): Promise<void>
  /** Downloads a settings file with every secret removed; returns the removed paths. */
  exportSanitized(): Promise<{ fileName: string; redacted: string[] }>
  /** Downloads a settings file whose secrets are encrypted with `passphrase`. */
  exportFull(passphrase: string): Promise<{ fileName: string }>
  downloadExport(id: string): Promise<void>
  restoreExport(id: string): Promise<SettingsImportOutcome>
  deleteExport(id: string): Promise<void>
  /** Imports a settings file; a full one asks for its passphrase through the passphrase dialog. */
  importSettingsFile(file: File): Promise<SettingsImportOutcome>

  dangerCounts(): Promise<DangerCounts>
  /** Deletes run history, recorded exports and caches. */
  clearCache(): Promise<void>
  /** Deletes every flow (and its runs), then opens a fresh empty flow. */
  deleteAllFlows(): Promise<void>
  /** Settings and keys back to defaults; flows and runs stay. */
  resetSettings(): Promise<void>
}
