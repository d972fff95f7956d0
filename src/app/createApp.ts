/**
 * The composition root: opens storage, starts autosave and preflight, builds the services the
 * UI receives through ServicesContext, and lets each area install its own services
 * (runs, settings, import/export, templates) through `installers.ts`. Installers may be lazy:
 * their code then loads after the first paint, and the UI sees their services when they land.
 */
import { createStore, type StoreApi } from 'zustand'
import { toFlowError, type FlowDocument } from '../engine/index.ts'
import { engineRegistry } from '../nodes/registry.ts'
import type { WardflowDb } from '../storage/index.ts'
import { flowStore as defaultFlowStore, type FlowStore } from '../store/flowStore.ts'
import { libraryStore } from '../store/libraryStore.ts'
import { noticeStore } from '../store/noticeStore.ts'
import { watchPreflight } from '../store/preflight.ts'
import { runStore } from '../store/runStore.ts'
import { settingsStore } from '../store/settingsStore.ts'
import { startAutosave, type Autosave } from './autosave.ts'
import { createFlowsService, summaryOf, type AppFlowsService } from './flowsService.ts'
import type { AppServices } from './services.ts'
import { loadStorage } from './storageModule.ts'

export interface AppCore {
  /** The database; rejects (once reported in the banner) when the browser blocks storage. */
  db(): Promise<WardflowDb>
  flows: FlowStore
  flowsService: AppFlowsService
  autosave: Autosave
}

/** What an area adds: services for the UI and an optional start step (load settings, ...). */
export interface Installed {
  services?: Partial<AppServices>
  start?(): Promise<void> | void
  stop?(): void
}

export type ServiceInstaller = (core: AppCore, services: AppServices) => Installed | void

/** An installer whose module is imported on start, keeping its code out of the first-paint bundle. */
export interface LazyInstaller {
  lazy: () => Promise<ServiceInstaller>
}

export type InstallerEntry = ServiceInstaller | LazyInstaller

/** `lazyInstaller(() => import('./runInstaller.ts').then((m) => m.installRuns))` */
export function lazyInstaller(load: () => Promise<ServiceInstaller>): LazyInstaller {
  return { lazy: load }
}

export interface CreateAppOptions {
  dbName?: string
  installers?: readonly InstallerEntry[]
  flows?: FlowStore
  /** Opens the database; tests pass one backed by fake-indexeddb. */
  openDb?(): Promise<WardflowDb>
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

  const autosave = startAutosave({
    store: flows,
    save: async (doc: FlowDocument) => (await loadStorage()).saveFlow(await db(), doc),
    delayMs: () => settingsStore.getState().settings.autosaveDelayMs,
    onStatus: (status) => libraryStore.getState().setSaveStatus(status),
    onSaved: (doc) => {
      libraryStore.getState().upsertFlow(summaryOf(doc))
      if (noticeStore.getState().banner?.code.startsWith('STORAGE_')) noticeStore.getState().dismissError()
    },
    onError: report,
  })

  const flowsService = createFlowsService({
    db,
    flows,
    library: libraryStore,
    notices: noticeStore,
    flush: () => autosave.flush(),
    onOpened: () => runStore.getState().actions.reset(),
  })

  const core: AppCore = { db, flows, flowsService, autosave }
  const services: AppServices = { flows: flowsService }
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
  const entries = options.installers ?? []
  // Plain installers install at once; lazy ones start loading now, in parallel.
  const pending = entries.map((entry) =>
    typeof entry === 'function' ? (install(entry), null) : entry.lazy(),
  )
  const stopPreflight = watchPreflight(flows, engineRegistry)

  const startInstalled = async (part: Installed | null): Promise<void> => {
    try {
      await part?.start?.()
    } catch (error) {
      report(error)
    }
  }

  return {
    services,
    servicesStore,
    core,
    async start() {
      const eager = [...installed]
      for (const part of eager) await startInstalled(part)
      // The open flow comes first: lazy areas' code downloads meanwhile (already requested),
      // but their start steps (settings, run history...) wait until the flow is on screen.
      await flowsService.start()
      for (const load of pending) {
        if (load === null) continue
        try {
          await startInstalled(install(await load))
        } catch (error) {
          report(error)
        }
      }
    },
    stop() {
      autosave.stop()
      stopPreflight()
      for (const part of installed) part.stop?.()
    },
  }
}
