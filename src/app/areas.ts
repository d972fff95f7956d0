/**
 * Each area plugs its services into the app here (one line each): runs, settings screen,
 * workflow import/export, templates. An installer receives the core (database, flow store,
 * flows service, autosave, settings sync) and the services built so far, and returns what it
 * adds.
 */
import { loadNamespaces, SETTINGS_NAMESPACES, TEMPLATES_NAMESPACE } from '../i18n/index.ts'
import { onDemandInstaller, type InstallerEntry, type ServiceInstaller } from './core/createApp.ts'
import { runStandIns, settingsStandIns, templatesStandIns, workflowsStandIns } from './core/standIns.ts'

/** An area's code together with its English text (the catalogues not bundled at start). */
async function withText(
  namespaces: readonly string[],
  load: () => Promise<ServiceInstaller>,
): Promise<ServiceInstaller> {
  const [installer] = await Promise.all([load(), loadNamespaces(namespaces)])
  return installer
}

// On demand: an area's code (engine runner, providers, sandbox client, file formats, settings
// screen, gallery) loads on the first use of one of its controls, or when the pointer reaches
// one; the page's start loads none of it. Stored settings load with the core (settingsSync.ts).
export const installers: InstallerEntry[] = [
  onDemandInstaller(
    'settings',
    () => withText(SETTINGS_NAMESPACES, () => import('./settings/install.ts').then((m) => m.installSettings)),
    settingsStandIns,
  ),
  onDemandInstaller(
    'workflows',
    () => withText(SETTINGS_NAMESPACES, () => import('./files/install.ts').then((m) => m.installWorkflows)),
    workflowsStandIns,
  ),
  onDemandInstaller('runs', () => import('./runs/install.ts').then((m) => m.installRuns), runStandIns),
  onDemandInstaller(
    'templates',
    () =>
      withText([TEMPLATES_NAMESPACE], () => import('./templates/install.ts').then((m) => m.installTemplates)),
    templatesStandIns,
  ),
]
