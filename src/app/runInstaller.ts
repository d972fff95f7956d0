/**
 * Plugs runs into the app: the run service with the browser's host abilities (system clock,
 * window.fetch, the QuickJS Web Worker sandbox, the tokenizer in a Web Worker of its own), the
 * storage runs repository, and the passphrase prompt of the settings area for locked keys.
 */
import { engineRegistry } from '../nodes/registry.ts'
import { siteUrl } from '../platform/siteUrl.ts'
import { systemClock } from '../platform/systemClock.ts'
import { loadBrowserTokenEstimator } from '../providers/tokenWorker.ts'
import { createWorkerCodeRunner } from '../sandbox/worker-runner.ts'
import { noticeStore } from '../store/noticeStore.ts'
import { runStore } from '../store/runStore.ts'
import { settingsStore } from '../store/settingsStore.ts'
import { settingsUiStore } from '../ui/settings/settingsUiStore.ts'
import type { AppCore, Installed } from './createApp.ts'
import type { KeyAccess, RunHost } from './runContext.ts'
import { dexieRunsRepository } from './runHistory.ts'
import { createRunService } from './runService.ts'
import type { AppServices } from './services.ts'

/** The browser's abilities for runs. */
export function browserRunHost(): RunHost {
  return {
    clock: systemClock,
    // Bound: some browsers refuse a fetch called with another `this`.
    fetch: globalThis.fetch.bind(globalThis),
    createCodeRunner: () => createWorkerCodeRunner(),
    loadEstimator: loadBrowserTokenEstimator,
    baseUrl: siteUrl(),
  }
}

/**
 * Locked keys through what the settings area publishes: its key state and its passphrase
 * dialog, which unlocks with the settings panel's `unlockKeys` (the settings are reloaded with
 * the keys before the dialog closes). Read lazily: the settings area may install after runs.
 */
export function settingsKeyAccess(services: AppServices): KeyAccess {
  return {
    isLocked: () => settingsUiStore.getState().keyState === 'locked',
    async requestUnlock() {
      const panel = services.settingsPanel
      if (!panel) return false
      const answer = await settingsUiStore.getState().askPassphrase({
        purpose: 'unlockForRun',
        confirm: false,
        verify: (passphrase: string) => panel.unlockKeys(passphrase),
      })
      return answer !== null
    },
  }
}

/** The run installer for installers.ts. */
export function installRuns(core: AppCore, services: AppServices): Installed {
  const service = createRunService({
    flows: core.flows,
    runs: runStore,
    notices: noticeStore,
    settings: () => settingsStore.getState().settings,
    registry: engineRegistry,
    flush: () => services.flows.flush(),
    repository: dexieRunsRepository(core.db),
    host: browserRunHost(),
    keys: settingsKeyAccess(services),
  })
  return {
    services: { run: service },
    start: () => service.refreshHistory(),
    stop: () => service.dispose(),
  }
}
