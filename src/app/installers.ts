/**
 * Each area plugs its services into the app here (one line each): runs, settings,
 * import/export, templates. An installer receives the core (database, flow store, flows
 * service, autosave) and the services built so far, and returns what it adds.
 */
import type { ServiceInstaller } from './createApp.ts'
import { installRuns } from './runInstaller.ts'
import { installSettings } from './settingsInstaller.ts'
import { installTemplates } from './templatesInstaller.ts'

export const installers: ServiceInstaller[] = [installSettings, installRuns, installTemplates]
