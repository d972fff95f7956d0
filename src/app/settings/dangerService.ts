/**
 * The danger zone: clear cache (run history, exports, caches), delete all flows, reset
 * settings. The confirm dialog shows the counts from dangerCounts(); storage runs each
 * operation in one transaction.
 */
import type { StoreApi } from 'zustand'
import { clearCache, deleteAllFlows, describeClearCache, resetSettings } from '../../storage/index.ts'
import type { AppSettings } from '../../settings/schema.ts'
import type { FlowStore } from '../../store/flowStore.ts'
import type { LibraryState } from '../../store/libraryStore.ts'
import type { SettingsPanelApi } from '../../ui/settings/api.ts'
import { dbGetter, type DbSource } from '../core/databaseService.ts'
import type { FlowsService } from '../../ui/services.ts'

export interface DangerDeps {
  db: DbSource
  flows: FlowsService
  flowStore: FlowStore
  library: StoreApi<LibraryState>
  current(): AppSettings
  /** After the settings rows were reset: forget keys, load defaults, apply them. */
  afterSettingsReset(): Promise<void>
  /** After run history went (the run panel reloads its list). */
  afterRunsCleared?(): Promise<void> | void
  refreshExports(): Promise<void>
}

type DangerApi = Pick<SettingsPanelApi, 'dangerCounts' | 'clearCache' | 'deleteAllFlows' | 'resetSettings'>

export function createDangerService(deps: DangerDeps): DangerApi {
  const db = dbGetter(deps.db)
  return {
    async dangerCounts() {
      const plan = await describeClearCache(await db())
      return {
        flows: plan.stays.flows ?? 0,
        runs: plan.goes.runs ?? 0,
        exports: plan.goes.exports ?? 0,
        caches: plan.goes.caches ?? 0,
        keys: plan.stays.keys ?? 0,
        keysLocked: plan.stays.keysLocked ?? false,
        providers: deps.current().providers.length,
      }
    },
    async clearCache() {
      await clearCache(await db())
      await deps.refreshExports()
      await deps.afterRunsCleared?.()
    },
    async deleteAllFlows() {
      // Pending edits are written first and the flow closed, so no autosave brings it back.
      await deps.flows.flush().catch(() => undefined)
      deps.flowStore.getState().actions.unload()
      await deleteAllFlows(await db())
      deps.library.getState().setFlows([])
      await deps.flows.create()
    },
    async resetSettings() {
      await resetSettings(await db())
      await deps.afterSettingsReset()
    },
  }
}
