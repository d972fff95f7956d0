/**
 * Plugs the settings screen into the app: providers, keys and their lock, runtime protection,
 * exports and the danger zone, over the core's settings sync (stored settings are loaded at
 * start without this code). An area loaded on first use (app/areas.ts): it loads when settings open or
 * a run needs the passphrase prompt.
 */
import type { AppCore, Installed } from '../core/createApp.ts'
import type { AppServices } from '../../ui/services.ts'
import { createSettingsService } from './settingsService.ts'

/** The settings installer for app/areas.ts. */
export function installSettings(core: AppCore, services: AppServices): Installed {
  const settings = createSettingsService({
    db: core.db,
    sync: core.settings,
    // Bound: some browsers refuse a fetch called with another `this`.
    fetch: globalThis.fetch.bind(globalThis),
    flows: services.flows,
    flowStore: core.flows,
    afterRunsCleared: async () => {
      // The run panel keeps the open flow's history in memory: reload it after "clear cache".
      await services.run?.refreshHistory?.()
    },
  })
  return { services: { settings: settings.settings, settingsPanel: settings.panel } }
}
