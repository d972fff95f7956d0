/**
 * Issue 23, item 8: a typing burst is saved while it goes on (at most AUTOSAVE_MAX_WAIT_MS
 * apart), and leaving the page journals the unsaved document synchronously before the
 * IndexedDB write starts (that write may never commit during a reload).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startAutosave } from '../../src/app/core/autosave.ts'
import { AUTOSAVE_MAX_WAIT_MS } from '../../src/defaults.ts'
import type { FlowDocument } from '../../src/engine/index.ts'
import { createFlowStore } from '../../src/store/flowStore.ts'
import { doc, node } from '../store/helpers.ts'

const DELAY_MS = 800
const KEY_EVERY_MS = 40

function setup(target: Window | null = null) {
  const store = createFlowStore()
  store.getState().actions.load(doc([node('a', 'template', 0, 0, { template: '' })]))
  const saved: Array<{ at: number; doc: FlowDocument }> = []
  const journal: FlowDocument[] = []
  let hang = false
  const autosave = startAutosave({
    store,
    // A write started while the page unloads never finishes: `hang` plays that.
    save: (d) =>
      hang ? new Promise<void>(() => undefined) : (saved.push({ at: Date.now(), doc: d }), Promise.resolve()),
    delayMs: () => DELAY_MS,
    onStatus: () => undefined,
    journal: (d) => journal.push(d),
    target,
    documentTarget: null,
  })
  return { store, saved, journal, autosave, hangWrites: () => (hang = true) }
}

describe('autosave during a typing burst', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('writes at least every AUTOSAVE_MAX_WAIT_MS while keys keep coming', async () => {
    const h = setup()
    const start = Date.now()
    let text = ''
    for (let t = 0; t < 4_000; t += KEY_EVERY_MS) {
      text += 'k'
      h.store.getState().actions.setConfigField('a', 'template', text)
      await vi.advanceTimersByTimeAsync(KEY_EVERY_MS)
    }
    // The debounce alone restarted on every key: nothing was written during the 4 s burst.
    expect(h.saved.length).toBeGreaterThanOrEqual(1)
    expect((h.saved[0]?.at ?? Infinity) - start).toBeLessThanOrEqual(AUTOSAVE_MAX_WAIT_MS + KEY_EVERY_MS)
    h.autosave.stop()
  })

  it('journals the unsaved document synchronously when the page is hidden, before any write lands', () => {
    const target = new EventTarget() as unknown as Window
    const h = setup(target)
    h.hangWrites()
    h.store.getState().actions.setConfigField('a', 'template', 'typed just before the reload')
    target.dispatchEvent(new Event('pagehide'))
    expect(h.journal).toHaveLength(1)
    expect(h.journal[0]?.nodes[0]?.data.config['template']).toBe('typed just before the reload')
    h.autosave.stop()
  })

  it('journals nothing when everything is saved', async () => {
    const target = new EventTarget() as unknown as Window
    const h = setup(target)
    h.store.getState().actions.setConfigField('a', 'template', 'x')
    await h.autosave.flush()
    target.dispatchEvent(new Event('pagehide'))
    expect(h.journal).toHaveLength(0)
    h.autosave.stop()
  })
})
