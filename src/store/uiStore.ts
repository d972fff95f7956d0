/** View preferences and open panels: not part of any flow, not in the undo history. */
import { createStore, useStore } from 'zustand'
import { clampRunPanelHeight, readLayoutPrefs, writeLayoutPrefs, type LayoutPrefs } from './layoutPrefs.ts'

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
  /** Side panels hidden and the run panel's height (layoutPrefs.ts, remembered per browser). */
  layout: LayoutPrefs
  setLayout(patch: Partial<LayoutPrefs>): void
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
  layout: readLayoutPrefs(),
  setLayout: (patch) => {
    const layout = { ...get().layout, ...patch }
    layout.runPanelHeightPx = clampRunPanelHeight(layout.runPanelHeightPx)
    set({ layout })
    writeLayoutPrefs(layout)
  },
}))

export function useUi<T>(selector: (state: UiState) => T): T {
  return useStore(uiStore, selector)
}
