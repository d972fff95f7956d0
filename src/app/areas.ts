/**
 * The app's areas, one entry each: runs, the settings screen, workflow files (import/export)
 * and templates. Each loads on first use of one of its controls, or when the pointer reaches
 * one; the page's start loads none of their code. Until then each publishes stand-ins
 * (core/standIns.ts) that load it and forward the call. Stored settings load with the core
 * (core/settingsSync.ts), not here.
 */
import {
  BATCH_NAMESPACE,
  ERRORS_NAMESPACE,
  ISSUES_NAMESPACE,
  KNOWLEDGE_NAMESPACE,
  loadNamespaces,
  SETTINGS_NAMESPACES,
  TEMPLATES_NAMESPACE,
} from '../i18n/index.ts'
import { knowledgeUiStore } from '../store/knowledgeUiStore.ts'
import { lazyArea, type AppArea, type ServiceInstaller } from './core/createApp.ts'
import { afterLoad, forwardingStandIn, pendingRun } from './core/standIns.ts'
import { settingsUiStore } from '../store/settingsUiStore.ts'
import { loadNodeConsole } from '../ui/nodes/FlowNodeView.tsx'

/** An area's code together with its English text (the catalogues not bundled at start). */
async function withText(
  namespaces: readonly string[],
  load: () => Promise<ServiceInstaller>,
): Promise<ServiceInstaller> {
  const [installer] = await Promise.all([load(), loadNamespaces(namespaces)])
  return installer
}

export const areas: AppArea[] = [
  lazyArea(
    'settings',
    () => withText(SETTINGS_NAMESPACES, () => import('./settings/install.ts').then((m) => m.installSettings)),
    (load) => ({
      settings: forwardingStandIn(load, 'settings', ['checkMcpServer'], {
        open() {
          // Open at once: the dialog shows as soon as its code lands.
          settingsUiStore.getState().openSettings()
          void load().catch(() => settingsUiStore.getState().closeSettings())
        },
      }),
    }),
  ),
  lazyArea(
    'workflows',
    () => withText(SETTINGS_NAMESPACES, () => import('./files/install.ts').then((m) => m.installWorkflows)),
    (load) => ({
      import: forwardingStandIn(load, 'import', ['importFile']),
      export: forwardingStandIn(load, 'export', ['exportWorkflow']),
    }),
  ),
  lazyArea(
    'runs',
    () => {
      // The nodes' consoles show a run's first lines: their code comes with the area's (a failed
      // download is tried again when a console is first shown).
      void loadNodeConsole().catch(() => undefined)
      // A refused run's banner words its problems (runRefusal.ts).
      return withText([ISSUES_NAMESPACE], () => import('./runs/install.ts').then((m) => m.installRuns))
    },
    (load) => ({ run: forwardingStandIn(load, 'run', ['openRun'], pendingRun(load)) }),
  ),
  lazyArea(
    'templates',
    () =>
      withText([TEMPLATES_NAMESPACE], () => import('./templates/install.ts').then((m) => m.installTemplates)),
    (load) => ({
      templates: forwardingStandIn(load, 'templates', ['openGallery', 'openLoopBreaker'], {
        openTemplate: async (id) => (await afterLoad(load, (s) => s.templates?.openTemplate?.(id))) ?? false,
      }),
    }),
  ),
  lazyArea(
    'knowledge',
    () =>
      withText([KNOWLEDGE_NAMESPACE, ERRORS_NAMESPACE], () =>
        import('./knowledge/install.ts').then((m) => m.installKnowledge),
      ),
    (load) => ({
      knowledge: forwardingStandIn(
        load,
        'knowledge',
        ['listBases', 'listDocuments', 'createBase', 'addFiles', 'removeDocument', 'removeBase'],
        {
          open() {
            // Open at once: the screen shows as soon as its code lands.
            knowledgeUiStore.getState().openKnowledge()
            void load().catch(() => knowledgeUiStore.getState().closeKnowledge())
          },
        },
      ),
    }),
  ),
  lazyArea(
    'batch',
    () =>
      withText([BATCH_NAMESPACE, ISSUES_NAMESPACE], () =>
        import('./batch/install.ts').then((m) => m.installBatch),
      ),
    (load) => ({ batch: forwardingStandIn(load, 'batch', ['open']) }),
  ),
]
