/**
 * Plugs the settings area into the app: the settings screen's service (providers, keys and
 * their lock, runtime protection, exports, danger zone), workflow import/export, and the
 * watcher that saves settings changed from the header (language, theme).
 */
import { toFlowError } from '../engine/index.ts'
import { noticeStore } from '../store/noticeStore.ts'
import type { AppCore, Installed } from './createApp.ts'
import { createWorkflowIoService } from './importExportService.ts'
import type { AppServices } from './services.ts'
import { createSettingsService } from './settingsService.ts'

function report(error: unknown): void {
  const e = toFlowError(error, 'STORAGE_FAILED')
  noticeStore
    .getState()
    .showError({ code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) })
}

/** The settings installer for installers.ts. */
export function installSettings(core: AppCore, services: AppServices): Installed {
  const settings = createSettingsService({
    db: core.db,
    // Bound: some browsers refuse a fetch called with another `this`.
    fetch: globalThis.fetch.bind(globalThis),
    flows: services.flows,
    flowStore: core.flows,
    afterRunsCleared: async () => {
      // The run panel keeps the open flow's history in memory: reload it after "clear cache".
      const run = services.run as { refreshHistory?: () => Promise<void> } | undefined
      await run?.refreshHistory?.()
    },
  })
  const workflows = createWorkflowIoService({ db: core.db, flows: services.flows, flowStore: core.flows })
  let unwatch: (() => void) | undefined
  return {
    services: {
      settings: settings.settings,
      settingsPanel: settings.panel,
      import: workflows,
      export: workflows,
    },
    async start() {
      await settings.load()
      unwatch = settings.watchStore(report)
    },
    stop: () => unwatch?.(),
  }
}
