/** Whether the Knowledge screen is open. Not persisted; the bases themselves live in IndexedDB. */
import { createStore, useStore } from 'zustand'

export interface KnowledgeUiState {
  open: boolean
  openKnowledge(): void
  closeKnowledge(): void
}

export const knowledgeUiStore = createStore<KnowledgeUiState>()((set) => ({
  open: false,
  openKnowledge: () => set({ open: true }),
  closeKnowledge: () => set({ open: false }),
}))

export function useKnowledgeOpen(): boolean {
  return useStore(knowledgeUiStore, (s) => s.open)
}
