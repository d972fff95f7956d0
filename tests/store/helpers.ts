import type { FlowDocument, FlowNode } from '../../src/engine/index.ts'
import { createFlowStore, type FlowStore } from '../../src/store/flowStore.ts'

export function doc(nodes: FlowNode[] = [], edges: FlowDocument['edges'] = []): FlowDocument {
  return {
    metadata: {
      id: 'f1',
      name: 'Flow',
      description: '',
      tags: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges,
  }
}

export function node(
  id: string,
  type = 'template',
  x = 0,
  y = 0,
  config: Record<string, unknown> = {},
): FlowNode {
  return { id, type, position: { x, y }, data: { label: id, config } }
}

/** A store with a manual clock: `clock.t` is the time undo grouping sees. */
export function storeWith(d: FlowDocument): { store: FlowStore; clock: { t: number } } {
  const clock = { t: 1_000 }
  const store = createFlowStore({ now: () => clock.t })
  store.getState().actions.load(d)
  return { store, clock }
}

export function depth(store: FlowStore): number {
  return store.temporal.getState().pastStates.length
}
