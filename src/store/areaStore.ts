/**
 * The app's on-demand areas (runs, settings screen, workflow import/export, template gallery):
 * which ones were asked for, and which are still loading. app/ writes it when an area's code is
 * requested; the UI mounts an area's dialogs once it was asked for and shows a short loading
 * state on the control that asked.
 */
import { createStore, useStore } from 'zustand'

export const AREAS = ['runs', 'settings', 'workflows', 'templates', 'knowledge', 'batch'] as const
export type AreaName = (typeof AREAS)[number]

export interface AreaState {
  requested: ReadonlySet<AreaName>
  loading: ReadonlySet<AreaName>
  /** Marks `area` as asked for and loading. */
  begin(area: AreaName): void
  /** Its code arrived and installed (or failed: it may be asked for again). */
  end(area: AreaName, ok: boolean): void
}

function without(set: ReadonlySet<AreaName>, area: AreaName): ReadonlySet<AreaName> {
  const next = new Set(set)
  next.delete(area)
  return next
}

export function createAreaStore() {
  return createStore<AreaState>()((set, get) => ({
    requested: new Set(),
    loading: new Set(),
    begin: (area) =>
      set({ requested: new Set([...get().requested, area]), loading: new Set([...get().loading, area]) }),
    end: (area, ok) =>
      set({
        loading: without(get().loading, area),
        ...(ok ? {} : { requested: without(get().requested, area) }),
      }),
  }))
}

export const areaStore = createAreaStore()

export function useAreaRequested(area: AreaName): boolean {
  return useStore(areaStore, (s) => s.requested.has(area))
}

export function useAreaLoading(area: AreaName): boolean {
  return useStore(areaStore, (s) => s.loading.has(area))
}
