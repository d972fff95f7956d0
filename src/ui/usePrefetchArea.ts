/**
 * Handlers for a control whose area loads on demand: the pointer reaching it (or focus) starts
 * loading the area, so by the click its code is usually there already.
 */
import { useServices } from './services.ts'
import { useAreaLoading, type AreaName } from '../store/areaStore.ts'

export interface PrefetchProps {
  onPointerEnter(): void
  onFocus(): void
  /** Set while the area loads after a click, for a short busy state. */
  'aria-busy'?: true
}

export function usePrefetchArea(area: AreaName): PrefetchProps {
  const loader = useServices().areas
  const loading = useAreaLoading(area)
  const prefetch = (): void => void loader?.load(area)
  return { onPointerEnter: prefetch, onFocus: prefetch, ...(loading ? { 'aria-busy': true } : {}) }
}
