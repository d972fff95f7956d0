/**
 * The composition root: opens storage, starts autosave and preflight, builds the services the
 * UI receives through ServicesContext, and lets each area install its own services
 * (runs, settings, import/export, templates) through `installers.ts`.
 */
import { toFlowError, type FlowDocument } from '../engine/index.ts'
import { engineRegistry } from '../nodes/registry.ts'
import { openWardflowDb, saveFlow, toStorageError, type WardflowDb } from '../storage/index.ts'
import { flowStore as defaultFlowStore, type FlowStore } from '../store/flowStore.ts'
import { libraryStore } from '../store/libraryStore.ts'
import { noticeStore } from '../store/noticeStore.ts'
import { watchPreflight } from '../store/preflight.ts'
import { runStore } from '../store/runStore.ts'
import { settingsStore } from '../store/settingsStore.ts'
import { startAutosave, type Autosave } from './autosave.ts'
import { createFlowsService, summaryOf, type AppFlowsService } from './flowsService.ts'
import type { AppServices } from './services.ts'

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

export interface CreateAppOptions {
  dbName?: string
  installers?: readonly ServiceInstaller[]
  flows?: FlowStore
  /** Opens the database; tests pass one backed by fake-indexeddb. */
  openDb?(): Promise<WardflowDb>
}

export interface App {
  services: AppServices
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
  const db = (): Promise<WardflowDb> => {
    dbPromise ??= (options.openDb ?? (() => openWardflowDb(options.dbName)))().catch((error: unknown) => {
      throw toStorageError(error, 'opening the database')
    })
    return dbPromise
  }

  const autosave = startAutosave({
    store: flows,
    save: async (doc: FlowDocument) => saveFlow(await db(), doc),
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
  const installed: Installed[] = []
  for (const install of options.installers ?? []) {
    const result = install(core, services)
    if (!result) continue
    installed.push(result)
    Object.assign(services, result.services)
  }
  const stopPreflight = watchPreflight(flows, engineRegistry)

  return {
    services,
    core,
    async start() {
      for (const part of installed) {
        try {
          await part.start?.()
        } catch (error) {
          report(error)
        }
      }
      await flowsService.start()
    },
    stop() {
      autosave.stop()
      stopPreflight()
      for (const part of installed) part.stop?.()
    },
  }
}
