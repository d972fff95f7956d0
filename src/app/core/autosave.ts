/**
 * Autosave: the open flow is written to storage AUTOSAVE_DELAY_MS (settings) after the last
 * change, and at once when the page is hidden or left. Nothing is serialised on the main
 * thread per keystroke: the store keeps plain objects and storage structured-clones them once
 * per save. A failed save keeps the flow dirty (the next change or flush retries) and never
 * touches what was saved before.
 */
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
  /** ISO-8601 time for `updatedAt`. */
  now?(): string
  /** Where pagehide/visibilitychange come from; `null` in tests that flush by hand. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null
  documentTarget?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> | null
}

export interface Autosave {
  /** Writes pending changes now; resolves when storage has them (or the write failed). */
  flush(): Promise<void>
  /** True while changes wait for the debounce or a write is running. */
  isDirty(): boolean
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
  let saved: Snapshot = snapshot(store.getState())
  let timer: ReturnType<typeof setTimeout> | null = null
  let writing: Promise<void> = Promise.resolve()
  let failed = false

  const dirty = (): boolean => failed || !same(saved, snapshot(store.getState()))

  const write = async (): Promise<void> => {
    const state = store.getState()
    const current = snapshot(state)
    if (same(saved, current) && !failed) return
    if (state.metadata === null) {
      saved = current
      return
    }
    const doc: FlowDocument = {
      metadata: { ...state.metadata, updatedAt: now() },
      viewport: state.viewport,
      nodes: state.nodes,
      edges: state.edges,
    }
    // Edits made while this write runs compare against this snapshot and stay dirty.
    saved = current
    options.onStatus('saving')
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
      options.onStatus(dirty() ? 'saving' : 'saved')
    } catch (error) {
      // Stays dirty: the next change or flush writes again.
      failed = true
      options.onStatus('error')
      options.onError?.(error)
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
      saved = snapshot(state)
      return
    }
    if (!failed && same(saved, snapshot(state))) return
    options.onStatus('saving')
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => void flush(), options.delayMs())
  })

  const win = options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target
  const doc =
    options.documentTarget === undefined
      ? typeof document === 'undefined'
        ? null
        : document
      : options.documentTarget
  const onPageHide = (): void => void flush()
  const onVisibility = (): void => {
    if (doc?.visibilityState === 'hidden') void flush()
  }
  win?.addEventListener('pagehide', onPageHide)
  doc?.addEventListener('visibilitychange', onVisibility)

  return {
    flush,
    isDirty: () => timer !== null || dirty(),
    stop: () => {
      unsubscribe()
      if (timer !== null) clearTimeout(timer)
      win?.removeEventListener('pagehide', onPageHide)
      doc?.removeEventListener('visibilitychange', onVisibility)
    },
  }
}
