/**
 * A component whose code loads on demand, rendered without Suspense once it is there. React
 * holds a suspended boundary's content back for ~300 ms after showing its fallback (its
 * fallback throttle), which would add that much to every first open of a dialog; with this hook
 * the dialog shows in the commit after its chunk arrives. Null until then; `wanted` starts the
 * load. `load` must be a module-level function (it is an effect dependency).
 */
import { useEffect, useState, type ComponentType } from 'react'

/**
 * What each `load` gave, so a part mounted after its code arrived (the next node to print, a
 * dialog opened again) renders it in its first commit instead of one commit later.
 */
const loadedBy = new WeakMap<() => Promise<unknown>, unknown>()

export function useLoadedComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  wanted: boolean,
): ComponentType<P> | null {
  const [component, setComponent] = useState<ComponentType<P> | null>(
    () => (loadedBy.get(load) as ComponentType<P> | undefined) ?? null,
  )
  useEffect(() => {
    if (!wanted || component !== null) return undefined
    let live = true
    // A failed download is reported by the area that asked for it; the next want tries again.
    load().then(
      (loaded) => {
        loadedBy.set(load, loaded)
        if (live) setComponent(() => loaded)
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [wanted, component, load])
  return component
}
