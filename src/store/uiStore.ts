/** View preferences and open panels: not part of any flow, not in the undo history. */
import { createStore, useStore } from 'zustand'

export interface UiState {
  snapToGrid: boolean
  minimap: boolean
  shortcutsOpen: boolean
  problemsOpen: boolean
  /** The node whose "Connect to…" list is open (the keyboard's way to draw a connection). */
  connectFrom: string | null
  toggleSnap(): void
  toggleMinimap(): void
  setShortcutsOpen(open: boolean): void
  setProblemsOpen(open: boolean): void
  setConnectFrom(nodeId: string | null): void
}

export const uiStore = createStore<UiState>()((set, get) => ({
  snapToGrid: true,
  minimap: true,
  shortcutsOpen: false,
  problemsOpen: true,
  connectFrom: null,
  toggleSnap: () => set({ snapToGrid: !get().snapToGrid }),
  toggleMinimap: () => set({ minimap: !get().minimap }),
  setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
  setProblemsOpen: (problemsOpen) => set({ problemsOpen }),
  setConnectFrom: (connectFrom) => set({ connectFrom }),
}))

export function useUi<T>(selector: (state: UiState) => T): T {
  return useStore(uiStore, selector)
}
