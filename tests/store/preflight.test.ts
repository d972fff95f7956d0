import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PREFLIGHT_DEBOUNCE_MS } from '../../src/defaults.ts'
import type { FlowDocument, Problem } from '../../src/engine/index.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { problemsStore, watchPreflight } from '../../src/store/preflight.ts'
import { createFlowLookup } from '../../src/nodes/flowLookup.ts'
import { nodeCatalog } from '../../src/nodes/registry.ts'
import { doc, node, storeWith } from './helpers.ts'

describe('preflight watcher', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('lists problems at once for an opened flow, then debounced after edits', async () => {
    const { store } = storeWith(doc([node('a', 'template', 0, 0, { template: '{{ghost.x}}' })]))
    const stop = watchPreflight(store, engineRegistry)
    expect(problemsStore.getState().problems.map((p) => p.code)).toEqual(['REF_UNKNOWN_NODE'])
    store.getState().actions.setConfigField('a', 'template', 'fixed')
    expect(problemsStore.getState().problems).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS)
    expect(problemsStore.getState().problems).toEqual([])
    stop()
  })

  it('reports a cycle that arrived with a pasted or imported flow, naming its nodes', () => {
    const { store } = storeWith(
      doc(
        [node('a'), node('b')],
        [
          { id: 'e1', source: 'a', target: 'b' },
          { id: 'e2', source: 'b', target: 'a' },
        ],
      ),
    )
    const stop = watchPreflight(store, engineRegistry)
    const cycle = problemsStore.getState().problems.find((p) => p.code === 'CYCLE')
    expect(cycle?.params['nodes']).toBe('a, b')
    stop()
  })

  it('never re-checks while nodes are only dragged', async () => {
    const { store } = storeWith(doc([node('a'), node('b', 'template', 200)]))
    const check = vi.fn((_doc: FlowDocument): Problem[] => [])
    const stop = watchPreflight(store, engineRegistry, { check })
    expect(check).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 30; i += 1) {
      store
        .getState()
        .actions.onNodesChange([{ type: 'position', id: 'a', position: { x: i, y: i }, dragging: true }])
      await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS / 10)
    }
    store.getState().actions.onNodesChange([{ type: 'position', id: 'a', dragging: false }])
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS * 2)
    expect(check).toHaveBeenCalledTimes(1)
    store.getState().actions.connect({ source: 'a', target: 'b' })
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS)
    expect(check).toHaveBeenCalledTimes(2)
    stop()
  })

  it('names a circle of sub-flow calls as it is built, reading the called flows again when calls change', async () => {
    // Saved flow `b` calls the open flow `f1` back.
    const saved = { ...doc([node('back', 'subflow', 0, 0, { flow: 'f1', inputs: {} })]) }
    saved.metadata = { ...saved.metadata, id: 'b', name: 'B' }
    const reads: string[] = []
    const loadCalled = vi.fn(async (d: FlowDocument) => {
      reads.push(JSON.stringify(d.nodes.map((n) => n.data.config['flow'])))
      return createFlowLookup([saved], nodeCatalog)
    })
    const { store } = storeWith(doc([node('call', 'subflow', 0, 0, { flow: '', inputs: {} })]))
    const stop = watchPreflight(store, engineRegistry, { loadCalled })
    const codes = () => problemsStore.getState().problems.map((p) => p.code)
    // A flow that calls none reads nothing.
    expect(loadCalled).not.toHaveBeenCalled()
    store.getState().actions.setConfigField('call', 'flow', 'b')
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS)
    const circle = problemsStore.getState().problems.find((p) => p.code === 'SUBFLOW_RECURSION')
    expect(circle).toMatchObject({
      nodeId: 'call',
      params: { chain: 'f1 -> b -> f1', names: 'Flow -> B -> Flow' },
    })
    expect(circle?.message).toContain('f1 -> b -> f1')
    // A flow that is not saved anywhere: read again, and reported as missing.
    store.getState().actions.setConfigField('call', 'flow', 'ghost')
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS)
    expect(codes()).toContain('SUBFLOW_NOT_FOUND')
    expect(codes()).not.toContain('SUBFLOW_RECURSION')
    expect(reads).toEqual(['["b"]', '["ghost"]'])
    // An edit that calls the same flows reads nothing more.
    store.getState().actions.setConfigField('call', 'inputs', { x: '' })
    await vi.advanceTimersByTimeAsync(PREFLIGHT_DEBOUNCE_MS)
    expect(loadCalled).toHaveBeenCalledTimes(2)
    stop()
  })
})
