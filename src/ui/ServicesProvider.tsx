/** Hands the app's services to the UI, re-rendering consumers when a lazy area installs more. */
import { useSyncExternalStore, type ReactNode } from 'react'
import type { StoreApi } from 'zustand'
import { ServicesContext, type AppServices } from './services.ts'

export function ServicesProvider({ store, children }: { store: StoreApi<AppServices>; children: ReactNode }) {
  const services = useSyncExternalStore(store.subscribe, store.getState)
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>
}
