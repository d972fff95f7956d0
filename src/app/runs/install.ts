/**
 * Plugs runs into the app: the run service with the browser's host abilities (system clock,
 * window.fetch, the QuickJS Web Worker sandbox, the tokenizer in a Web Worker of its own), the
 * storage runs repository, and the passphrase prompt of the settings area for locked keys.
 */
import type { FlowDocument, KnowledgeSearch } from '../../engine/index.ts'
import { engineRegistry } from '../../nodes/registry.ts'
import { siteUrl } from '../../platform/siteUrl.ts'
import { systemClock } from '../../platform/systemClock.ts'
import { loadBrowserTokenEstimator } from '../../providers/tokenWorker.ts'
import { createWorkerCodeRunner } from '../../sandbox/worker-runner.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { runStore } from '../../store/runStore.ts'
import { settingsStore } from '../../store/settingsStore.ts'
import type { AppCore, Installed } from '../core/createApp.ts'
import type { KeyAccess, RunHost } from './RunResources.ts'
import { loadStorage } from '../core/loadStorage.ts'
import { dexieRunsRepository, type RunsRepository } from './runHistory.ts'
import { getBatchRun } from '../../storage/repositories/batchRuns.ts'
import { createRunService } from './runService.ts'
import { loadPriceTable } from './pricing.ts'
import type { AppServices } from '../../ui/services.ts'
import { libraryStore } from '../../store/libraryStore.ts'
import { summaryOf } from '../core/flowsService.ts'
import type { ForkHost } from './forkService.ts'
import { dexieApprovalsRepository } from './pausedRuns.ts'

/** The browser's abilities for runs. */
export function browserRunHost(): RunHost {
  return {
    clock: systemClock,
    // Bound: some browsers refuse a fetch called with another `this`.
    fetch: globalThis.fetch.bind(globalThis),
    createCodeRunner: () => createWorkerCodeRunner(),
    loadEstimator: loadBrowserTokenEstimator,
    baseUrl: siteUrl(),
    loadPriceTable,
  }
}

/**
 * Locked keys through the app core's key service. The passphrase dialog belongs to the
 * settings screen, so the settings area loads before the prompt opens; unlocking reloads the
 * settings with the keys before the dialog closes.
 */
export function settingsKeyAccess(core: Pick<AppCore, 'settings' | 'area'>): KeyAccess {
  return {
    isLocked: () => core.settings.keys.isLocked(),
    async requestUnlock() {
      try {
        await core.area('settings')
      } catch {
        return false
      }
      return core.settings.keys.requestUnlock('unlockForRun')
    },
  }
}

/** A stored flow by id (the flows a run calls), shared with the batch area. */
export function storedFlowLoader(
  core: Pick<AppCore, 'db'>,
): (id: string) => Promise<FlowDocument | undefined> {
  return async (id) => {
    const [storage, db] = await Promise.all([loadStorage(), core.db()])
    return (await storage.loadFlow(db, id))?.doc
  }
}

/** The browser's knowledge port, loaded (with the worker client) by the first knowledge search. */
function lazyKnowledge(core: Pick<AppCore, 'db' | 'settings' | 'area'>): KnowledgeSearch {
  let port: Promise<KnowledgeSearch> | undefined
  return {
    async search(query) {
      port ??= Promise.all([
        import('../knowledge/browserKnowledge.ts'),
        import('../knowledge/install.ts'),
      ]).then(([m, i]) =>
        m.createBrowserKnowledge(core.db, undefined, {
          embedderFor: i.knowledgeEmbedders(core),
          fetch: globalThis.fetch.bind(globalThis),
        }),
      )
      return (await port).search(query)
    },
  }
}

/** A fork's new flow: saved like a duplicate, listed, then opened. */
function forkHost(core: Pick<AppCore, 'db'>, services: AppServices): ForkHost {
  return {
    async create(doc) {
      const [storage, db] = await Promise.all([loadStorage(), core.db()])
      await storage.saveFlow(db, doc)
      libraryStore.getState().upsertFlow(summaryOf(doc))
      await services.flows.open(doc.metadata.id)
    },
    async restore(snapshot) {
      const storage = await loadStorage()
      return storage.restoreFlowDocument(snapshot)
    },
  }
}

/** Run history, whose `get` also finds a batch row's run (batch-results opens it on the canvas). */
function withBatchRuns(runs: RunsRepository, core: Pick<AppCore, 'db'>): RunsRepository {
  return { ...runs, get: async (id) => (await runs.get(id)) ?? getBatchRun(await core.db(), id) }
}

/** The run installer for app/areas.ts. */
export function installRuns(core: AppCore, services: AppServices): Installed {
  const service = createRunService({
    flows: core.flows,
    runs: runStore,
    notices: noticeStore,
    settings: () => settingsStore.getState().settings,
    registry: engineRegistry,
    flush: () => services.flows.flush(),
    repository: withBatchRuns(dexieRunsRepository(core.db), core),
    host: { ...browserRunHost(), knowledge: lazyKnowledge(core) },
    keys: settingsKeyAccess(core),
    loadFlow: storedFlowLoader(core),
    forks: forkHost(core, services),
    approvals: dexieApprovalsRepository(core.db),
  })
  return {
    services: { run: service },
    // A run a reload left paused on an approval shows again, its card with it (pausedRuns.ts).
    start: () => service.refreshHistory().then(service.restorePaused),
    stop: () => service.dispose(),
  }
}
