/**
 * The flows service behind the flow list: new, open, rename, duplicate, delete. The open flow
 * is always saved (flushed) before another one replaces it, and the last open flow is
 * remembered so a reload reopens it.
 */
import type { StoreApi } from 'zustand'
import type { FlowDocument } from '../../engine/index.ts'
import { toFlowError } from '../../engine/index.ts'
import { i18next } from '../../i18n/index.ts'
import type { WardflowDb } from '../../storage/index.ts'
import type { FlowStore } from '../../store/flowStore.ts'
import { EMPTY_VIEWPORT } from '../../store/flowStore.ts'
import { newFlowId } from '../../store/ids.ts'
import type { FlowSummary, LibraryState } from '../../store/libraryStore.ts'
import type { NoticeState } from '../../store/noticeStore.ts'
import type { FlowsService } from '../../ui/services.ts'
import { loadStorage } from './loadStorage.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import type { TabSync } from './tabSync.ts'

const LAST_FLOW_KEY = 'wardflow.lastFlowId'

export interface FlowsServiceDeps {
  /** Resolves to the database, or rejects when storage is unavailable (then nothing is kept). */
  db(): Promise<WardflowDb>
  flows: FlowStore
  library: StoreApi<LibraryState>
  notices: StoreApi<NoticeState>
  /** Writes pending autosave changes. */
  flush(): Promise<void>
  /** Called after another flow was opened (run views reset, etc.). */
  onOpened?(doc: FlowDocument): void
  /** Revisions and the unsaved-changes journal (tabSync.ts); without it, neither is kept. */
  sync?: Pick<TabSync, 'opened' | 'recover'>
  now?(): string
}

export interface AppFlowsService extends FlowsService {
  /** Lists stored flows and opens the last one (or a new one). Call once at start. */
  start(): Promise<void>
}

export function summaryOf(doc: FlowDocument): FlowSummary {
  return {
    id: doc.metadata.id,
    name: doc.metadata.name,
    updatedAt: doc.metadata.updatedAt,
    nodeCount: doc.nodes.length,
  }
}

export function emptyFlow(name: string, now: string): FlowDocument {
  return {
    metadata: { id: newFlowId(), name, description: '', tags: [], createdAt: now, updatedAt: now },
    viewport: { ...EMPTY_VIEWPORT },
    nodes: [],
    edges: [],
  }
}

function remember(id: string): void {
  try {
    localStorage.setItem(LAST_FLOW_KEY, id)
  } catch {
    // Without localStorage the most recent flow opens instead.
  }
}

function remembered(): string | null {
  try {
    return localStorage.getItem(LAST_FLOW_KEY)
  } catch {
    return null
  }
}

export function createFlowsService(deps: FlowsServiceDeps): AppFlowsService {
  const now = deps.now ?? (() => new Date().toISOString())
  const library = (): LibraryState => deps.library.getState()

  /** The storage module and the database, both loaded on first use. */
  const repo = async () => {
    const [storage, db] = await Promise.all([loadStorage(), deps.db()])
    return { storage, db }
  }

  const report = (error: unknown): void => {
    const e = toFlowError(error, 'STORAGE_FAILED')
    deps.notices.getState().showError({
      code: e.code,
      message: e.message,
      details: e.details,
      ...(e.messageKey === undefined ? {} : { messageKey: e.messageKey }),
      ...(e.problems === undefined ? {} : { problems: e.problems }),
    })
  }

  const show = (doc: FlowDocument, revision: number): void => {
    deps.sync?.opened(doc.metadata.id, doc, revision)
    deps.flows.getState().actions.load(doc)
    remember(doc.metadata.id)
    deps.onOpened?.(doc)
  }

  const createAndOpen = async (name?: string): Promise<void> => {
    const doc = emptyFlow(name ?? i18next.t('flows.untitled'), now())
    show(doc, 0)
    library().upsertFlow(summaryOf(doc))
    try {
      const { storage, db } = await repo()
      const { revision } = await storage.saveFlow(db, doc, { baseRevision: 0 })
      if (deps.flows.getState().flowId === doc.metadata.id) deps.sync?.opened(doc.metadata.id, doc, revision)
    } catch (error) {
      report(error)
    }
  }

  const open = async (id: string): Promise<void> => {
    if (deps.flows.getState().flowId === id) return
    await deps.flush()
    try {
      const { storage, db } = await repo()
      const loaded = await storage.loadFlow(db, id)
      if (loaded === undefined) {
        library().removeFlow(id)
        return
      }
      const shown = deps.sync ? await deps.sync.recover(id, loaded) : loaded
      if (shown !== loaded) library().upsertFlow(summaryOf(shown.doc))
      show(shown.doc, shown.revision)
    } catch (error) {
      report(error)
    }
  }

  return {
    async start() {
      let flows: FlowSummary[] = []
      try {
        const { storage, db } = await repo()
        flows = await storage.listFlows(db)
      } catch (error) {
        report(error)
      }
      library().setFlows(flows)
      const last = remembered()
      const pick = flows.find((f) => f.id === last) ?? flows[0]
      if (pick) {
        await open(pick.id)
        if (deps.flows.getState().flowId !== null) return
      }
      await createAndOpen()
    },
    create: async (name) => {
      await deps.flush()
      await createAndOpen(name)
    },
    open,
    async describe(id) {
      const { storage, db } = await repo()
      const loaded = await storage.loadFlow(db, id)
      if (loaded === undefined) return null
      // With the inspector's sub-flow field, not the page's start.
      const { describeFlow } = await import('../../nodes/flowLookup.ts')
      const { inputKeys, outputKeys } = describeFlow(loaded.doc, nodeCatalog)
      return { inputKeys, outputKeys }
    },
    async rename(id, name) {
      if (deps.flows.getState().flowId === id) {
        // A past run is shown: the open flow is a view, its name included.
        if (deps.flows.getState().readOnly) {
          deps.notices.getState().note('canvas.readOnly', undefined, 'warning')
          return
        }
        // The open flow: a store edit, which autosave writes like any other.
        deps.flows.getState().actions.rename(name)
        await deps.flush()
        return
      }
      try {
        const { storage, db } = await repo()
        library().upsertFlow(summaryOf(await storage.renameFlow(db, id, name, now())))
      } catch (error) {
        report(error)
      }
    },
    async duplicate(id) {
      await deps.flush()
      try {
        const source = library().flows.find((f) => f.id === id)
        const name = i18next.t('flows.copyName', { name: source?.name ?? '' })
        const { storage, db } = await repo()
        const copy = await storage.duplicateFlow(db, id, newFlowId(), name, now())
        library().upsertFlow(summaryOf(copy))
        await open(copy.metadata.id)
      } catch (error) {
        report(error)
      }
    },
    async remove(id) {
      const wasOpen = deps.flows.getState().flowId === id
      if (wasOpen) {
        // Close it first and wait for any write in flight, so no autosave brings it back.
        deps.flows.getState().actions.unload()
        await deps.flush()
      }
      try {
        const { storage, db } = await repo()
        await storage.removeFlow(db, id)
        library().removeFlow(id)
      } catch (error) {
        report(error)
      }
      if (!wasOpen) return
      const next = library().flows.find((f) => f.id !== id)
      if (next) await open(next.id)
      if (deps.flows.getState().flowId === null) await createAndOpen()
    },
    flush: () => deps.flush(),
  }
}
