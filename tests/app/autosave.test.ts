import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startAutosave, type Autosave } from '../../src/app/core/autosave.ts'
import { FlowError, type FlowDocument } from '../../src/engine/index.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'
import type { SaveStatus } from '../../src/store/libraryStore.ts'
import { doc, node } from '../store/helpers.ts'

const DELAY_MS = 800

interface Harness {
  store: FlowStore
  autosave: Autosave
  saved: FlowDocument[]
  statuses: SaveStatus[]
  errors: unknown[]
  failNext: { error: unknown | null }
}

function harness(target: Pick<Window, 'addEventListener' | 'removeEventListener'> | null = null): Harness {
  const store = createFlowStore()
  store.getState().actions.load(doc([node('a', 'template', 0, 0, { template: '' })]))
  const h: Harness = {
    store,
    saved: [],
    statuses: [],
    errors: [],
    failNext: { error: null },
    autosave: undefined as unknown as Autosave,
  }
  h.autosave = startAutosave({
    store,
    save: async (d) => {
      if (h.failNext.error !== null) {
        const error = h.failNext.error
        h.failNext.error = null
        throw error
      }
      h.saved.push(d)
    },
    delayMs: () => DELAY_MS,
    onStatus: (s) => h.statuses.push(s),
    onError: (e) => h.errors.push(e),
    now: () => '2026-02-02T00:00:00.000Z',
    target,
    documentTarget: null,
  })
  return h
}

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('writes once, after the debounce, with the latest document', async () => {
    const h = harness()
    const { actions } = h.store.getState()
    actions.setConfigField('a', 'template', 'H')
    await vi.advanceTimersByTimeAsync(DELAY_MS / 2)
    actions.setConfigField('a', 'template', 'Hi')
    await vi.advanceTimersByTimeAsync(DELAY_MS - 1)
    expect(h.saved).toHaveLength(0)
    expect(h.statuses.at(-1)).toBe('saving')
    await vi.advanceTimersByTimeAsync(1)
    expect(h.saved).toHaveLength(1)
    expect(h.saved[0]?.nodes[0]?.data.config['template']).toBe('Hi')
    expect(h.saved[0]?.metadata.updatedAt).toBe('2026-02-02T00:00:00.000Z')
    expect(h.statuses.at(-1)).toBe('saved')
    h.autosave.stop()
  })

  it('does not save for selection, measured sizes or a freshly opened flow', async () => {
    const h = harness()
    const { actions } = h.store.getState()
    actions.select(['a'])
    actions.onNodesChange([{ type: 'dimensions', id: 'a', dimensions: { width: 10, height: 10 } }])
    actions.load({ ...doc([node('b')]), metadata: { ...doc().metadata, id: 'f2' } })
    await vi.advanceTimersByTimeAsync(DELAY_MS * 3)
    expect(h.saved).toHaveLength(0)
    expect(h.autosave.isDirty()).toBe(false)
    h.autosave.stop()
  })

  it('flush writes pending changes at once and adopts the new updatedAt without saving again', async () => {
    const h = harness()
    h.store.getState().actions.setViewport({ x: 3, y: 4, zoom: 0.5 })
    await h.autosave.flush()
    expect(h.saved).toHaveLength(1)
    expect(h.saved[0]?.viewport).toEqual({ x: 3, y: 4, zoom: 0.5 })
    expect(h.store.getState().metadata?.updatedAt).toBe('2026-02-02T00:00:00.000Z')
    await vi.advanceTimersByTimeAsync(DELAY_MS * 3)
    await h.autosave.flush()
    expect(h.saved).toHaveLength(1)
    h.autosave.stop()
  })

  it('flushes when the page is hidden or left', async () => {
    const target = new EventTarget() as unknown as Window
    const h = harness(target)
    h.store.getState().actions.setLabel('a', 'Renamed')
    target.dispatchEvent(new Event('pagehide'))
    await vi.advanceTimersByTimeAsync(0)
    expect(h.saved).toHaveLength(1)
    expect(h.saved[0]?.nodes[0]?.data.label).toBe('Renamed')
    h.autosave.stop()
  })

  it('keeps the flow dirty after a failed save and writes it on the next flush', async () => {
    const h = harness()
    h.failNext.error = new FlowError('STORAGE_QUOTA', 'full')
    h.store.getState().actions.setConfigField('a', 'template', 'x')
    await h.autosave.flush()
    expect(h.saved).toHaveLength(0)
    expect(h.statuses.at(-1)).toBe('error')
    expect(h.errors).toHaveLength(1)
    expect(h.autosave.isDirty()).toBe(true)
    await h.autosave.flush()
    expect(h.saved).toHaveLength(1)
    expect(h.saved[0]?.nodes[0]?.data.config['template']).toBe('x')
    expect(h.statuses.at(-1)).toBe('saved')
    h.autosave.stop()
  })

  it('never writes a document that a store edit mutated in place (snapshots are the store objects)', async () => {
    const h = harness()
    h.store.getState().actions.setConfigField('a', 'template', 'one')
    await h.autosave.flush()
    h.store.getState().actions.setConfigField('a', 'template', 'two')
    await h.autosave.flush()
    expect(h.saved.map((d) => d.nodes[0]?.data.config['template'])).toEqual(['one', 'two'])
    h.autosave.stop()
  })
})
