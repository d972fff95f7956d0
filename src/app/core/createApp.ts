/**
 * The composition root: opens storage, starts autosave, preflight and the settings sync, builds
 * the services the UI receives through ServicesContext, and lets each area install its own
 * services (runs, settings screen, import/export, templates; the list is `app/areas.ts`).
 * An installer runs at start, or, for a lazy area, on first use: such an area publishes
 * stand-in services at once (standIns.ts), so every control works from the first paint; the
 * first call loads the area, installs the real services in their place and forwards the call.
 */
import { createStore, type StoreApi } from 'zustand'
import { toFlowError, type FlowDocument } from '../../engine/index.ts'
import { engineRegistry, nodeCatalog } from '../../nodes/registry.ts'
import type { WardflowDb } from '../../storage/index.ts'
import { flowStore as defaultFlowStore, type FlowStore } from '../../store/flowStore.ts'
import { libraryStore } from '../../store/libraryStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { watchPreflight } from '../../store/preflight.ts'
import { runStore } from '../../store/runStore.ts'
import { settingsStore } from '../../store/settingsStore.ts'
import { areaStore as defaultAreaStore, type AreaName, type AreaState } from '../../store/areaStore.ts'
import { startAutosave, type Autosave } from './autosave.ts'
import { createFlowsService, summaryOf, type AppFlowsService } from './flowsService.ts'
import type { AppServices } from '../../ui/services.ts'
import type { SettingsChannel } from './settingsChannel.ts'
import { createSettingsSync, type SettingsSync } from './settingsSync.ts'
import { loadStorage } from './loadStorage.ts'
import { createTabSync, type TabSync } from './tabSync.ts'

export interface AppCore {
  /** The database; rejects (once reported in the banner) when the browser blocks storage. */
  db(): Promise<WardflowDb>
  flows: FlowStore
  flowsService: AppFlowsService
  autosave: Autosave
  /** Stored settings <-> the settings store (loaded at start, before any area's code). */
  settings: SettingsSync
  /** Loads and installs an on-demand area (once); resolves with the services after it. */
  area(name: AreaName): Promise<AppServices>
}

/** What an area adds: services for the UI and an optional start step (load settings, ...). */
export interface Installed {
  services?: Partial<AppServices>
  start?(): Promise<void> | void
  stop?(): void
}

export type ServiceInstaller = (core: AppCore, services: AppServices) => Installed | void

/**
 * An area whose code loads on first use. `standIns` are published at once: each one asks for
 * the area with `load` and then calls what the area installed in its place.
 */
export interface LazyArea {
  area: AreaName
  load: () => Promise<ServiceInstaller>
  standIns(load: () => Promise<AppServices>): Partial<AppServices>
}

/** An installer run at start, or an area loaded on first use. */
export type AppArea = ServiceInstaller | LazyArea

/** `lazyArea('runs', () => import('../runs/install.ts').then((m) => m.installRuns), (load) => ({ run: ... }))` */
export function lazyArea(
  area: AreaName,
  load: () => Promise<ServiceInstaller>,
  standIns: LazyArea['standIns'],
): LazyArea {
  return { area, load, standIns }
}

export interface CreateAppOptions {
  dbName?: string
  installers?: readonly AppArea[]
  flows?: FlowStore
  /** Opens the database; tests pass one backed by fake-indexeddb. */
  openDb?(): Promise<WardflowDb>
  /** Loads stored settings at start (default true); tests of other parts may leave it off. */
  loadSettings?: boolean
  /** Which areas were asked for; the UI mounts their dialogs from it. */
  areas?: StoreApi<AreaState>
  /** Cross-tab settings notices (main.tsx opens the browser's); tests leave it out. */
  settingsChannel?: SettingsChannel | null
}

export interface App {
  /** The live services object (installers read it lazily); the UI reads `servicesStore`. */
  services: AppServices
  /** A fresh copy of the services after each install, for ServicesProvider. */
  servicesStore: StoreApi<AppServices>
  core: AppCore
  /** Runs every installer's start step, then opens the last flow. */
  start(): Promise<void>
  stop(): void
}

function report(error: unknown): void {
  const e = toFlowError(error, 'STORAGE_FAILED')
  noticeStore.getState().showError({ code: e.code, message: e.message, details: e.details })
}

export function createApp(options: CreateAppOptions = {}): App {
  const flows = options.flows ?? defaultFlowStore
  let dbPromise: Promise<WardflowDb> | null = null
  // Requested now, so storage downloads while the shell paints.
  if (!options.openDb) void loadStorage()
  const db = (): Promise<WardflowDb> => {
    const open = options.openDb ?? (async () => (await loadStorage()).openWardflowDb(options.dbName))
    dbPromise ??= open().catch(async (error: unknown) => {
      throw (await loadStorage()).toStorageError(error, 'opening the database')
    })
    return dbPromise
  }

  const sync: TabSync = createTabSync({ db, flows, library: libraryStore, notices: noticeStore })
  const autosave = startAutosave({
    store: flows,
    save: (doc: FlowDocument) => sync.save(doc),
    journal: (doc) => sync.journal(doc),
    onClean: (flowId) => sync.clearJournal(flowId),
    delayMs: () => settingsStore.getState().settings.autosaveDelayMs,
    onStatus: (status) => libraryStore.getState().setSaveStatus(status),
    onSaved: (doc) => {
      libraryStore.getState().upsertFlow(summaryOf(doc))
      if (noticeStore.getState().banner?.code.startsWith('STORAGE_')) noticeStore.getState().dismissError()
    },
    onError: report,
  })
  sync.connect(autosave)

  const flowsService = createFlowsService({
    db,
    flows,
    library: libraryStore,
    notices: noticeStore,
    flush: () => autosave.flush(),
    onOpened: (doc) => {
      runStore.getState().actions.reset()
      // Banners belong to what caused them: a flow's failure does not follow to the next flow.
      noticeStore.getState().flowOpened(doc.metadata.id)
    },
    sync,
  })

  const areas = options.areas ?? defaultAreaStore
  const settings = createSettingsSync({ db, channel: options.settingsChannel ?? null })
  const core: AppCore = { db, flows, flowsService, autosave, settings, area: (name) => loadArea(name) }
  const services: AppServices = { flows: flowsService, areas: { load: (name) => prefetchArea(name) } }
  const servicesStore = createStore<AppServices>()(() => ({ ...services }))
  const installed: Installed[] = []
  const install = (installer: ServiceInstaller): Installed | null => {
    const result = installer(core, services)
    if (!result) return null
    installed.push(result)
    Object.assign(services, result.services)
    servicesStore.setState({ ...services }, true)
    return result
  }
  const startInstalled = async (part: Installed | null): Promise<void> => {
    try {
      await part?.start?.()
    } catch (error) {
      report(error)
    }
  }

  const entries = options.installers ?? []
  /** Each on-demand area's installer and the stand-ins it published. */
  const onDemand = new Map<AreaName, { entry: LazyArea; standIns: Partial<AppServices> }>()
  const areaLoads = new Map<AreaName, Promise<AppServices>>()
  function loadArea(name: AreaName): Promise<AppServices> {
    const area = onDemand.get(name)
    if (!area) return Promise.resolve(services)
    let loading = areaLoads.get(name)
    if (loading) return loading
    areas.getState().begin(name)
    loading = area.entry.load().then(
      async (installer) => {
        await startInstalled(install(installer))
        // A stand-in the area did not replace would forward to itself: it goes.
        for (const [key, standIn] of Object.entries(area.standIns)) {
          const service = key as keyof AppServices
          if (services[service] === standIn) delete services[service]
        }
        servicesStore.setState({ ...services }, true)
        areas.getState().end(name, true)
        return services
      },
      (error: unknown) => {
        // Offline or a new deployment: report it; the next use tries again.
        areaLoads.delete(name)
        areas.getState().end(name, false)
        report(error)
        throw error
      },
    )
    areaLoads.set(name, loading)
    return loading
  }
  /** For the UI: loads an area (ahead of a likely use, or on it); false when it failed. */
  const prefetchArea = (name: AreaName): Promise<boolean> =>
    loadArea(name).then(
      () => true,
      () => false,
    )

  // Plain installers install at once; on-demand ones publish their stand-ins and load on first use.
  for (const entry of entries) {
    if (typeof entry === 'function') {
      install(entry)
      continue
    }
    const standIns = entry.standIns(() => loadArea(entry.area))
    onDemand.set(entry.area, { entry, standIns })
    Object.assign(services, standIns)
  }
  servicesStore.setState({ ...services }, true)
  // The flows a Sub-flow node calls, read as a run reads them (runService), so the problems list
  // names a circle of calls as it is built. Loaded only once the open flow calls another.
  const stopPreflight = watchPreflight(flows, engineRegistry, {
    loadCalled: async (doc) => {
      const [lookup, storage, database] = await Promise.all([
        import('../../nodes/flowLookup.ts'),
        loadStorage(),
        db(),
      ])
      const load = (id: string) =>
        storage.loadFlow(database, id).then(
          (loaded) => loaded?.doc,
          () => undefined,
        )
      const called = await lookup.collectCalledFlows(doc, engineRegistry, load)
      return lookup.createFlowLookup(called, nodeCatalog)
    },
  })

  let unwatchSettings: (() => void) | undefined
  const startSettings = async (): Promise<void> => {
    if (options.loadSettings === false) return
    try {
      await settings.load()
    } catch (error) {
      report(error)
    }
    unwatchSettings = settings.watchStore(report)
  }

  return {
    services,
    servicesStore,
    core,
    async start() {
      const eager = [...installed]
      for (const part of eager) await startInstalled(part)
      // The open flow comes first, then the stored settings.
      await flowsService.start()
      await startSettings()
      // A run a reload left waiting on an approval: the runs area shows it again with its card.
      // A storage that cannot answer here only means no paused run is shown: the app still starts.
      const paused = await db()
        .then((d) => d.approvals.count())
        .catch(() => 0)
      if (paused > 0) void loadArea('runs').catch(() => undefined)
    },
    stop() {
      autosave.stop()
      sync.stop()
      stopPreflight()
      unwatchSettings?.()
      for (const part of installed) part.stop?.()
    },
  }
}
