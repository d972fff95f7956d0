/**
 * Settings export (sanitized / full) and import, and the list of earlier exports (IndexedDB
 * `exports`). An import changes nothing until the file was read, decrypted and validated in
 * full; a sanitized import keeps the stored keys of providers with the same id.
 */
import type { StoreApi } from 'zustand'
import { FlowError } from '../../engine/index.ts'
import { movedProviders } from '../../settings/origin.ts'
import type { AppSettings } from '../../settings/schema.ts'
import {
  exportSettingsFull,
  exportSettingsSanitized,
  getExport,
  importSettingsText,
  listExports,
  recordExport,
  removeExport,
  settingsFileName,
  SettingsImportError,
  type ImportedSettings,
  type SaveSettingsReport,
} from '../../storage/index.ts'
import { readTextFile } from '../../storage/textFile.ts'
import type { SettingsImportOutcome, SettingsPanelApi } from '../../ui/settings/api.ts'
import type { SettingsUiState } from '../../store/settingsUiStore.ts'
import { dbGetter, type DbSource } from '../core/databaseService.ts'
import type { Downloader } from '../core/downloadService.ts'
import type { KeyService } from '../core/keyService.ts'

export interface SettingsExportDeps {
  db: DbSource
  keys: KeyService
  ui: StoreApi<SettingsUiState>
  download: Downloader
  now(): number
  /** The settings in use (keys filled in while readable). */
  current(): AppSettings
  /**
   * Saves imported settings (keeping stored keys where the file has none and the provider's
   * origin is unchanged) and applies them; says which stored keys were dropped.
   */
  applyImported(settings: AppSettings): Promise<SaveSettingsReport>
}

type ExportApi = Pick<
  SettingsPanelApi,
  | 'refreshExports'
  | 'exportSanitized'
  | 'exportFull'
  | 'downloadExport'
  | 'restoreExport'
  | 'deleteExport'
  | 'importSettingsFile'
>

function needsPassphrase(error: unknown): boolean {
  return (
    error instanceof FlowError &&
    error.code === 'WRONG_PASSPHRASE' &&
    error.details?.['needsPassphrase'] === true
  )
}

export function createSettingsExportService(deps: SettingsExportDeps): ExportApi {
  const db = dbGetter(deps.db)
  async function refreshExports(): Promise<void> {
    deps.ui.getState().setExports(await listExports(await db()))
  }

  async function record(kind: 'sanitized' | 'full', text: string, exportedAt: string): Promise<string> {
    const fileName = settingsFileName(kind, exportedAt)
    await recordExport(await db(), { kind, fileName, text, createdAt: deps.now() })
    deps.download(fileName, text)
    await refreshExports()
    return fileName
  }

  /** Reads (and for a full file decrypts) a settings file; null when the person cancels. */
  async function read(text: string, subject: string): Promise<ImportedSettings | null> {
    try {
      return await importSettingsText(text)
    } catch (error) {
      if (!needsPassphrase(error)) throw error
    }
    let imported: ImportedSettings | null = null
    const answer = await deps.ui.getState().askPassphrase({
      purpose: 'importFull',
      confirm: false,
      subject,
      verify: async (passphrase) => {
        imported = await importSettingsText(text, passphrase)
      },
    })
    return answer === null ? null : imported
  }

  async function importText(text: string, subject: string): Promise<SettingsImportOutcome> {
    let imported: ImportedSettings | null
    try {
      imported = await read(text, subject)
    } catch (error) {
      // The problems keep their catalogue keys: the Backup tab lists them in the UI's language.
      if (error instanceof SettingsImportError) {
        return { status: 'refused', message: error.message, problems: [...error.problems] }
      }
      if (error instanceof FlowError && error.code === 'IMPORT_INVALID') {
        return { status: 'refused', message: error.message, problems: [] }
      }
      throw error
    }
    if (imported === null) return { status: 'cancelled' }
    const hasKeys = imported.secrets.some((s) => s.apiKey !== '' || s.headers.length > 0)
    // Keys from a full file are stored encrypted while locked: that needs this session's key.
    // So does dropping the stored key of a provider the file points to another origin.
    const moves = movedProviders(deps.current(), imported.settings).length > 0
    if ((hasKeys || moves) && deps.keys.isLocked() && !(await deps.keys.requestUnlock('unlockKeys'))) {
      return { status: 'cancelled' }
    }
    const before = deps.current()
    const locked = deps.keys.isLocked()
    const report = await deps.applyImported(imported.settings)
    const dropped = new Set(report.droppedKeys.map((d) => d.providerId))
    const keptKeysFor = imported.settings.providers
      .filter((p) => p.apiKey === '' && p.kind !== 'demo' && !dropped.has(p.id))
      .filter((p) => {
        const old = before.providers.find((o) => o.id === p.id)
        return old !== undefined && (locked || old.apiKey !== '')
      })
      .map((p) => p.id)
    return {
      status: 'imported',
      kind: imported.kind,
      keptKeysFor,
      droppedKeys: report.droppedKeys,
      demoRestored: imported.notes.length > 0,
      notes: [],
    }
  }

  async function mustGet(id: string) {
    const entry = await getExport(await db(), id)
    if (entry === undefined) {
      await refreshExports()
      throw new FlowError('STORAGE_FAILED', 'That export is no longer stored; the list was refreshed.')
    }
    return entry
  }

  return {
    refreshExports,
    async exportSanitized() {
      const exportedAt = new Date(deps.now()).toISOString()
      const secrets = deps.keys.session()?.secrets ?? []
      const out = exportSettingsSanitized(deps.current(), secrets, { exportedAt })
      const fileName = await record('sanitized', out.text, exportedAt)
      return { fileName, redacted: out.redacted }
    },
    async exportFull(passphrase) {
      if (deps.keys.isLocked()) {
        throw new FlowError('KEY_LOCKED', 'Unlock your keys first: a full export carries them (encrypted).')
      }
      const exportedAt = new Date(deps.now()).toISOString()
      const secrets = deps.keys.session()?.secrets ?? []
      const out = await exportSettingsFull(deps.current(), secrets, passphrase, { exportedAt })
      return { fileName: await record('full', out.text, exportedAt) }
    },
    async downloadExport(id) {
      const entry = await mustGet(id)
      deps.download(entry.fileName, entry.text)
    },
    async restoreExport(id) {
      const entry = await mustGet(id)
      return importText(entry.text, entry.fileName)
    },
    async deleteExport(id) {
      await removeExport(await db(), id)
      await refreshExports()
    },
    async importSettingsFile(file) {
      return importText(await readTextFile(file), file.name)
    },
  }
}
