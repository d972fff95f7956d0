/**
 * Each area plugs its services into the app here (one line each): runs, settings screen,
 * workflow import/export, templates. An installer receives the core (database, flow store,
 * flows service, autosave, settings sync) and the services built so far, and returns what it
 * adds.
 */
import { onDemandInstaller, type InstallerEntry } from './createApp.ts'
import { runStandIns, settingsStandIns, templatesStandIns, workflowsStandIns } from './standIns.ts'

// On demand: an area's code (engine runner, providers, sandbox client, file formats, settings
// screen, gallery) loads on the first use of one of its controls, or when the pointer reaches
// one; the page's start loads none of it. Stored settings load with the core (settingsSync.ts).
export const installers: InstallerEntry[] = [
  onDemandInstaller(
    'settings',
    () => import('./settingsInstaller.ts').then((m) => m.installSettings),
    settingsStandIns,
  ),
  onDemandInstaller(
    'workflows',
    () => import('./workflowsInstaller.ts').then((m) => m.installWorkflows),
    workflowsStandIns,
  ),
  onDemandInstaller('runs', () => import('./runInstaller.ts').then((m) => m.installRuns), runStandIns),
  onDemandInstaller(
    'templates',
    () => import('./templatesInstaller.ts').then((m) => m.installTemplates),
    templatesStandIns,
  ),
]
