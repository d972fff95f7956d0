/**
 * Each area plugs its services into the app here (one line each): runs, settings,
 * import/export, templates. An installer receives the core (database, flow store, flows
 * service, autosave) and the services built so far, and returns what it adds.
 */
import { lazyInstaller, type InstallerEntry } from './createApp.ts'

// Lazy: each area's code (engine runner, providers, sandbox client, import/export, settings
// screens) loads right after the first paint instead of inside the first-paint bundle.
export const installers: InstallerEntry[] = [
  lazyInstaller(() => import('./settingsInstaller.ts').then((m) => m.installSettings)),
  lazyInstaller(() => import('./runInstaller.ts').then((m) => m.installRuns)),
  lazyInstaller(() => import('./templatesInstaller.ts').then((m) => m.installTemplates)),
]
