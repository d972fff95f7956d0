/**
 * The saved flows as the flow list shows them, and how the last save went. app/ fills it from
 * storage; ui/ reads it and asks app/ services to change it.
 */
import { createStore, useStore } from 'zustand'

export interface FlowSummary {
  id: string
  name: string
  /** ISO-8601 */
  updatedAt: string
  nodeCount: number
}

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error'

export interface LibraryState {
  flows: readonly FlowSummary[]
  /** False until storage answered once; the UI shows a quiet loading state meanwhile. */
  ready: boolean
  saveStatus: SaveStatus
  setFlows(flows: readonly FlowSummary[]): void
  upsertFlow(flow: FlowSummary): void
  removeFlow(id: string): void
  setSaveStatus(status: SaveStatus): void
}

export function createLibraryStore() {
  return createStore<LibraryState>()((set, get) => ({
    flows: [],
    ready: false,
    saveStatus: 'idle',
    setFlows: (flows) => set({ flows, ready: true }),
    upsertFlow: (flow) => {
      const rest = get().flows.filter((f) => f.id !== flow.id)
      set({ flows: [flow, ...rest].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) })
    },
    removeFlow: (id) => set({ flows: get().flows.filter((f) => f.id !== id) }),
    setSaveStatus: (saveStatus) => {
      if (get().saveStatus !== saveStatus) set({ saveStatus })
    },
  }))
}

export const libraryStore = createLibraryStore()

export function useLibrary<T>(selector: (state: LibraryState) => T): T {
  return useStore(libraryStore, selector)
}
