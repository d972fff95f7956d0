/**
 * The flow's own run limits (metadata.limits) are edited through the flow store like any other
 * edit: a typing burst is one undo step, undo and redo bring the limits back, and the rest of the
 * metadata (name, dates, switches: never undoable) stays as it is now.
 */
import { describe, expect, it } from 'vitest'
import { UNDO_GROUP_WINDOW_MS } from '../../src/defaults.ts'
import { depth, doc, node, storeWith } from './helpers.ts'

describe('flow run limits in the flow store', () => {
  it('sets, groups a typing burst, and undoes and redoes the limits only', () => {
    const { store, clock } = storeWith(doc([node('t')]))
    const { actions } = store.getState()
    for (const tokens of [1, 15, 150]) {
      clock.t += 100
      actions.setRunLimits({ maxRunTokens: tokens }, 'flow-limit-tokens')
    }
    expect(store.getState().metadata?.limits).toEqual({ maxRunTokens: 150 })
    expect(depth(store)).toBe(1)
    actions.rename('Renamed')
    actions.setReuseUnchanged(true)
    // Autosave writes the save time into the metadata: no undo step.
    store.setState({ metadata: { ...store.getState().metadata!, updatedAt: '2026-02-02T00:00:00.000Z' } })
    expect(depth(store)).toBe(1)
    actions.undo()
    const undone = store.getState().metadata
    expect(undone?.limits).toBeUndefined()
    expect(undone).toMatchObject({
      name: 'Renamed',
      reuseUnchanged: true,
      updatedAt: '2026-02-02T00:00:00.000Z',
    })
    actions.redo()
    expect(store.getState().metadata).toMatchObject({ name: 'Renamed', limits: { maxRunTokens: 150 } })
  })

  it('keeps both limits apart, clears one at a time, and clears the key when none is left', () => {
    const { store, clock } = storeWith(doc())
    const { actions } = store.getState()
    actions.setRunLimits({ maxRunTokens: 500 })
    clock.t += UNDO_GROUP_WINDOW_MS + 1
    actions.setRunLimits({ maxRunTokens: 500, maxRunCostUsd: 0.25 })
    expect(store.getState().metadata?.limits).toEqual({ maxRunTokens: 500, maxRunCostUsd: 0.25 })
    actions.setRunLimits({ maxRunCostUsd: 0.25 })
    expect(store.getState().metadata?.limits).toEqual({ maxRunCostUsd: 0.25 })
    actions.setRunLimits(undefined)
    expect(store.getState().metadata).not.toHaveProperty('limits')
    expect(depth(store)).toBe(4)
    // The same limits again change nothing and make no step.
    actions.setRunLimits({})
    expect(depth(store)).toBe(4)
  })

  it('a 0 is kept: it means "no limit for this flow", over a default from settings', () => {
    const { store } = storeWith(doc())
    store.getState().actions.setRunLimits({ maxRunTokens: 0 })
    expect(store.getState().metadata?.limits).toEqual({ maxRunTokens: 0 })
  })

  it('a view (a past run open) does not change the limits', () => {
    const { store } = storeWith(doc())
    store.getState().actions.setReadOnly(true)
    store.getState().actions.setRunLimits({ maxRunTokens: 9 })
    expect(store.getState().metadata?.limits).toBeUndefined()
  })
})
