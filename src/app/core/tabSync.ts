/**
 * Tabs that have one flow open know of each other (issue 16, item 4). Every save names the
 * revision it was edited from (saveFlow's `baseRevision`), so a tab never overwrites a version
 * it has not seen; each save is announced on a BroadcastChannel, and a tab with the flow open
 * pulls the new version at once: with nothing unsaved it simply shows it, with unsaved edits it
 * merges both (flowMerge.ts, loaded with the first pull: tabMerge.ts) and saves the merge. A save that still loses the race (both tabs
 * wrote at once) gets FLOW_CONFLICT from storage and does the same. When both tabs changed the
 * same node, this tab's version is kept and the other's is saved as a copy of the flow, and the
 * banner says so: never a silent loss.
 *
 * It also keeps the unsaved-changes journal (autosave.ts explains why): localStorage, one entry
 * per flow, naming the revision the document was edited from, read back when the flow opens.
 */
import type { StoreApi } from 'zustand'
import { FLOW_SAVE_ATTEMPTS } from '../../defaults.ts'
import { FlowError, type FlowDocument } from '../../engine/index.ts'
import type { WardflowDb } from '../../storage/index.ts'
import { ISSUES_NAMESPACE, loadNamespaces } from '../../i18n/index.ts'
import type { FlowStore } from '../../store/flowStore.ts'
import type { FlowSummary, LibraryState } from '../../store/libraryStore.ts'
import type { NoticeState } from '../../store/noticeStore.ts'
import type { Autosave } from './autosave.ts'
import { loadStorage } from './loadStorage.ts'

const CHANNEL_NAME = 'wardflow.flows'

let merging: Promise<typeof import('./tabMerge.ts')> | null = null
/** Only a pull merges: that code is a chunk of its own, loaded once, retried after a failure. */
function loadMerge(): Promise<typeof import('./tabMerge.ts')> {
  // The copy's name and the banner's words are in the issues catalogue: they come with the code.
  merging ??= Promise.all([import('./tabMerge.ts'), loadNamespaces([ISSUES_NAMESPACE])])
    .then(([merge]) => merge)
    .catch((error: unknown) => {
      merging = null
      throw error
    })
  return merging
}
const JOURNAL_PREFIX = 'wardflow.unsaved.'

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
type Channel = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent) => void) | null
}

export interface TabSyncDeps {
  db(): Promise<WardflowDb>
  flows: FlowStore
  library: StoreApi<LibraryState>
  notices: StoreApi<NoticeState>
  /** Where the journal lives; localStorage by default, null for none. */
  journalStore?: KeyValueStore | null
  /** The channel to the other tabs; a BroadcastChannel by default, null for none. */
  channel?: Channel | null
}

export interface TabSync {
  /** Tells which stored revision the flow just shown is (flowsService, after load or create). */
  opened(flowId: string, doc: FlowDocument, revision: number): void
  /** Autosave's write: checked against the revision this tab knows, announced to the others. */
  save(doc: FlowDocument): Promise<void>
  /** Brings another tab's newer save of the open flow into this tab. */
  pull(): Promise<void>
  journal(doc: FlowDocument): void
  clearJournal(flowId: string): void
  /** What to show when a flow opens: its stored version, or a journal of unsaved edits. */
  recover(
    flowId: string,
    loaded: { doc: FlowDocument; revision: number },
  ): Promise<{ doc: FlowDocument; revision: number }>
  /** Autosave is made after the sync (it saves through it): connected here. */
  connect(autosave: Autosave): void
  stop(): void
}

interface SavedMessage {
  type: 'saved'
  flowId: string
  revision: number
  summary: FlowSummary
}

function isSavedMessage(data: unknown): data is SavedMessage {
  const m = data as Partial<SavedMessage> | null
  return (
    typeof m === 'object' &&
    m !== null &&
    m.type === 'saved' &&
    typeof m.flowId === 'string' &&
    typeof m.revision === 'number' &&
    typeof m.summary === 'object' &&
    m.summary !== null &&
    typeof m.summary.id === 'string' &&
    typeof m.summary.name === 'string'
  )
}

function defaultJournalStore(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

function defaultChannel(): Channel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME)
}

function summaryOf(doc: FlowDocument): FlowSummary {
  const m = doc.metadata
  return { id: m.id, name: m.name, updatedAt: m.updatedAt, nodeCount: doc.nodes.length }
}

function sameContent(a: FlowDocument, b: FlowDocument): boolean {
  return (
    a.metadata.name === b.metadata.name &&
    JSON.stringify(a.nodes) === JSON.stringify(b.nodes) &&
    JSON.stringify(a.edges) === JSON.stringify(b.edges)
  )
}

export function createTabSync(deps: TabSyncDeps): TabSync {
  const journalStore = deps.journalStore === undefined ? defaultJournalStore() : deps.journalStore
  const channel = deps.channel === undefined ? defaultChannel() : deps.channel
  /** The stored version this tab's open flow was last read or written as. */
  let known: { flowId: string; revision: number; base: FlowDocument } | null = null
  let autosave: Autosave | null = null
  let pulling: Promise<void> | null = null

  const repo = async () => {
    const [storage, db] = await Promise.all([loadStorage(), deps.db()])
    return { storage, db }
  }

  const currentDoc = (): FlowDocument | null => {
    const s = deps.flows.getState()
    if (s.metadata === null) return null
    return { metadata: s.metadata, viewport: s.viewport, nodes: s.nodes, edges: s.edges }
  }

  /** The merge and the copy load with the first pull (tabMerge.ts). */
  async function keepCopy(version: FlowDocument, conflicts: readonly string[]): Promise<void> {
    const [{ storage, db }, merge] = await Promise.all([repo(), loadMerge()])
    await merge.keepCopy({ ...deps, storage, db, summaryOf }, version, conflicts)
  }

  async function pullNow(fromSave: boolean): Promise<void> {
    const flowId = deps.flows.getState().flowId
    if (flowId === null || known?.flowId !== flowId) return
    const [{ storage, db }, merge] = await Promise.all([repo(), loadMerge()])
    const loaded = await storage.loadFlow(db, flowId)
    const mine = currentDoc()
    if (!loaded || mine === null || deps.flows.getState().flowId !== flowId) return
    if (known.flowId !== flowId || loaded.revision <= known.revision) return
    const { doc, conflicts } = merge.mergeFlows(known.base, mine, loaded.doc)
    known = { flowId, revision: loaded.revision, base: loaded.doc }
    if (conflicts.length > 0) await keepCopy(loaded.doc, conflicts)
    const apply = (): void =>
      deps.flows.setState({ nodes: doc.nodes, edges: doc.edges, metadata: { ...doc.metadata } })
    // From a refused save the merge must be written (autosave already counts it as saved);
    // from an announcement, adopt it: written back only when this tab had unsaved edits.
    if (fromSave || autosave === null) apply()
    else autosave.adopt(apply)
  }

  const pull = (fromSave = false): Promise<void> => {
    const run = (pulling ?? Promise.resolve()).then(() => pullNow(fromSave))
    pulling = run.catch(() => undefined)
    return run
  }

  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      const data: unknown = event.data
      if (!isSavedMessage(data)) return
      deps.library.getState().upsertFlow(data.summary)
      if (deps.flows.getState().flowId === data.flowId && (known?.revision ?? 0) < data.revision)
        void pull().catch(() => undefined)
    }
  }

  async function save(doc: FlowDocument, attempts: number): Promise<void> {
    const flowId = doc.metadata.id
    const base = known?.flowId === flowId ? known.revision : undefined
    const { storage, db } = await repo()
    try {
      const { revision } = await storage.saveFlow(db, doc, base === undefined ? {} : { baseRevision: base })
      known = { flowId, revision, base: doc }
      channel?.postMessage({
        type: 'saved',
        flowId,
        revision,
        summary: summaryOf(doc),
      } satisfies SavedMessage)
    } catch (error) {
      if (!(error instanceof FlowError) || error.code !== 'FLOW_CONFLICT' || attempts <= 1) throw error
      // Another tab saved first: merge its version in. A merge changes the store, and autosave
      // writes that next; if the store is unchanged (the other version was pulled already), this
      // document is the merge: write it over the revision now known.
      await pull(true)
      const now = currentDoc()
      if (now !== null && now.nodes === doc.nodes && now.edges === doc.edges && now.metadata.id === flowId)
        await save(doc, attempts - 1)
    }
  }

  return {
    opened(flowId, doc, revision) {
      known = { flowId, revision, base: doc }
    },
    save: (doc) => save(doc, FLOW_SAVE_ATTEMPTS),
    pull: () => pull(),
    journal(doc) {
      const baseRevision = known?.flowId === doc.metadata.id ? known.revision : null
      journalStore?.setItem(JOURNAL_PREFIX + doc.metadata.id, JSON.stringify({ baseRevision, doc }))
    },
    clearJournal(flowId) {
      try {
        journalStore?.removeItem(JOURNAL_PREFIX + flowId)
      } catch {
        // Nothing was kept there.
      }
    },
    async recover(flowId, loaded) {
      let raw: string | null
      try {
        raw = journalStore?.getItem(JOURNAL_PREFIX + flowId) ?? null
      } catch {
        return loaded
      }
      if (raw === null) return loaded
      const clear = (): void => this.clearJournal(flowId)
      let entry: { baseRevision?: unknown; doc?: unknown }
      try {
        entry = JSON.parse(raw) as { baseRevision?: unknown; doc?: unknown }
      } catch {
        clear()
        return loaded
      }
      const { storage, db } = await repo()
      const doc = await storage.restoreFlowDocument(entry.doc)
      if (doc === undefined || doc.metadata.id !== flowId || sameContent(doc, loaded.doc)) {
        clear()
        return loaded
      }
      if (entry.baseRevision === loaded.revision) {
        // Nothing was saved since these edits were made: they are the newest version.
        const { revision } = await storage.saveFlow(db, doc, { baseRevision: loaded.revision })
        clear()
        return { doc, revision }
      }
      // Another tab saved after these edits: keep them as a copy rather than lose either.
      await keepCopy(doc, [])
      clear()
      return loaded
    },
    connect(next) {
      autosave = next
    },
    stop() {
      channel?.close()
    },
  }
}
