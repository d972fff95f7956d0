/**
 * Autosave: the open flow is written to storage AUTOSAVE_DELAY_MS (settings) after the last
 * change, but at least every AUTOSAVE_MAX_WAIT_MS while changes keep coming (the debounce alone
 * restarted on every key, so a 4 s typing burst was not saved at all until it ended), and at
 * once when the page is hidden or left. Nothing is serialised on the main thread per
 * keystroke: the store keeps plain objects and storage structured-clones them once per save.
 * A failed save keeps the flow dirty (the next change or flush retries) and never touches what
 * was saved before.
 *
 * Leaving the page: an IndexedDB write started in `pagehide` (or `visibilitychange`) is
 * asynchronous (Dexie opens its transaction a few microtasks later) and in Chromium it does not
 * commit when the page is being unloaded by a reload: the burst was lost. So, when the page is
 * hidden with unsaved changes, the document is first written to a synchronous journal
 * (`journal`, localStorage in the app: `setItem` has landed when it returns, and a reload or the
 * next visit reads it back, see tabSync.ts), then the IndexedDB write is started as before.
 * The journal is cleared once a write leaves nothing unsaved. localStorage rather than
 * sessionStorage: it also survives closing the tab, and the journal names the revision it was
 * edited from, so whichever tab finds it can tell whether it still applies.
 */
import { AUTOSAVE_MAX_WAIT_MS } from '../../defaults.ts'
import type { FlowDocument } from '../../engine/index.ts'
import type { FlowState, FlowStore } from '../../store/flowStore.ts'
import type { SaveStatus } from '../../store/libraryStore.ts'

export interface AutosaveOptions {
  store: FlowStore
  save(doc: FlowDocument): Promise<void>
  /** Read at every change, so a settings change applies at once. */
  delayMs(): number
  onStatus(status: SaveStatus): void
  onSaved?(doc: FlowDocument): void
  onError?(error: unknown): void
  /** Keeps `doc` synchronously (it must have landed on return): called when the page is hidden with unsaved changes. */
  journal?(doc: FlowDocument): void
  /** Called when a write left the flow `flowId` with nothing unsaved (the journal can go). */
  onClean?(flowId: string): void
  /** ISO-8601 time for `updatedAt`. */
  now?(): string
  /** Milliseconds clock for the max wait; Date.now by default. */
  clockMs?(): number
  /** Where pagehide/visibilitychange come from; `null` in tests that flush by hand. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null
  documentTarget?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> | null
}

export interface Autosave {
  /** Writes pending changes now; resolves when storage has them (or the write failed). */
  flush(): Promise<void>
  /** True while changes wait for the debounce or a write is running. */
  isDirty(): boolean
  /**
   * Applies a change that did not come from this tab's editing (another tab's saved version):
   * when nothing was unsaved before, the result counts as saved and is not written back.
   */
  adopt(apply: () => void): void
  stop(): void
}

type Snapshot = Pick<FlowState, 'flowId' | 'metadata' | 'nodes' | 'edges' | 'viewport'>

function snapshot(s: FlowState): Snapshot {
  return { flowId: s.flowId, metadata: s.metadata, nodes: s.nodes, edges: s.edges, viewport: s.viewport }
}

function same(a: Snapshot, b: Snapshot): boolean {
  return (
    a.flowId === b.flowId &&
    a.metadata === b.metadata &&
    a.nodes === b.nodes &&
    a.edges === b.edges &&
    a.viewport === b.viewport
  )
}

export function startAutosave(options: AutosaveOptions): Autosave {
  const { store } = options
  const now = options.now ?? (() => new Date().toISOString())
  const clockMs = options.clockMs ?? (() => Date.now())
  let saved: Snapshot = snapshot(store.getState())
  let timer: ReturnType<typeof setTimeout> | null = null
  /** When the oldest change not yet being written was made; null when there is none. */
  let dirtySince: number | null = null
  let writing: Promise<void> = Promise.resolve()
  /** True while a write is under way: what it writes is not stored yet. */
  let inFlight = false
  let failed = false

  const dirty = (): boolean => failed || !same(saved, snapshot(store.getState()))

  const documentOf = (state: FlowState, metadata: NonNullable<FlowState['metadata']>): FlowDocument => ({
    metadata: { ...metadata, updatedAt: now() },
    viewport: state.viewport,
    nodes: state.nodes,
    edges: state.edges,
  })

  const write = async (): Promise<void> => {
    const state = store.getState()
    const current = snapshot(state)
    dirtySince = null
    if (same(saved, current) && !failed) return
    if (state.metadata === null) {
      saved = current
      return
    }
    const doc = documentOf(state, state.metadata)
    // Edits made while this write runs compare against this snapshot and stay dirty.
    saved = current
    options.onStatus('saving')
    inFlight = true
    try {
      await options.save(doc)
      failed = false
      const after = store.getState()
      if (after.flowId === doc.metadata.id && after.metadata === state.metadata) {
        // Adopt the new updatedAt without making the flow dirty again (saved first: setState
        // notifies the subscription below synchronously).
        if (saved.metadata === state.metadata) saved = { ...saved, metadata: doc.metadata }
        store.setState({ metadata: doc.metadata })
      }
      options.onSaved?.(doc)
      const clean = !dirty()
      if (clean) options.onClean?.(doc.metadata.id)
      options.onStatus(clean ? 'saved' : 'saving')
    } catch (error) {
      // Stays dirty: the next change or flush writes again.
      failed = true
      options.onStatus('error')
      options.onError?.(error)
    } finally {
      inFlight = false
    }
  }

  const flush = (): Promise<void> => {
    if (timer !== null) {
      clearTimeout(timer)
      timer = null
    }
    writing = writing.then(write, write)
    return writing
  }

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.flowId !== previous.flowId) {
      // Another flow was opened: its stored version is what we have. The service flushed first.
      if (timer !== null) clearTimeout(timer)
      timer = null
      failed = false
      dirtySince = null
      saved = snapshot(state)
      return
    }
    if (!failed && same(saved, snapshot(state))) return
    options.onStatus('saving')
    if (timer !== null) clearTimeout(timer)
    const delay = options.delayMs()
    const at = clockMs()
    dirtySince ??= at
    // Never longer than the max wait since the first unsaved change (nor shorter than the delay setting).
    const maxWait = Math.max(AUTOSAVE_MAX_WAIT_MS, delay)
    timer = setTimeout(() => void flush(), Math.max(0, Math.min(delay, dirtySince + maxWait - at)))
  })

  /** Journals the unsaved document (synchronously), then starts the IndexedDB write. */
  const leave = (): void => {
    const state = store.getState()
    if (state.metadata !== null && (timer !== null || dirty())) {
      try {
        options.journal?.(documentOf(state, state.metadata))
      } catch {
        // A full or disabled localStorage: the IndexedDB write below is all there is.
      }
    }
    void flush()
  }

  const win = options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target
  const doc =
    options.documentTarget === undefined
      ? typeof document === 'undefined'
        ? null
        : document
      : options.documentTarget
  const onPageHide = (): void => leave()
  const onVisibility = (): void => {
    if (doc?.visibilityState === 'hidden') leave()
  }
  win?.addEventListener('pagehide', onPageHide)
  doc?.addEventListener('visibilitychange', onVisibility)

  return {
    flush,
    isDirty: () => timer !== null || dirty(),
    adopt: (apply) => {
      // A write under way counts as unsaved: adopting over it would drop what it carries.
      const before = inFlight || timer !== null || dirty()
      apply()
      if (before) return
      if (timer !== null) clearTimeout(timer)
      timer = null
      dirtySince = null
      saved = snapshot(store.getState())
      options.onStatus('saved')
    },
    stop: () => {
      unsubscribe()
      if (timer !== null) clearTimeout(timer)
      win?.removeEventListener('pagehide', onPageHide)
      doc?.removeEventListener('visibilitychange', onVisibility)
    },
  }
}
