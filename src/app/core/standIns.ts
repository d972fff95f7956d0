/**
 * Services an area publishes before its code has loaded (createApp.ts): a stand-in forwards
 * each call to the service the area installs in its place, after loading the area. A failed
 * load is already reported in the banner by createApp; here it only ends the call.
 */
import { isRunActive, runStore } from '../../store/runStore.ts'
import type { AppServices } from '../../ui/services.ts'

/** Loads the area (once) and resolves with the services it installed. */
export type LoadArea = () => Promise<AppServices>

type ServiceName = Exclude<keyof AppServices, 'flows' | 'areas'>
type Service<K extends ServiceName> = NonNullable<AppServices[K]>
type Method = (...args: never[]) => unknown

/** Loads the area, then calls `call` with its services; resolves undefined when the load failed. */
export async function afterLoad<T>(
  load: LoadArea,
  call: (services: AppServices) => T,
): Promise<Awaited<T> | undefined> {
  let services: AppServices
  try {
    services = await load()
  } catch {
    return undefined
  }
  return await call(services)
}

/**
 * The stand-in for service `name`: each of `methods` loads the area, then calls the same method
 * of the service the area installed (resolving undefined when the load failed). `own` methods
 * answer without forwarding: what the UI must see at once, before the area's code arrives.
 */
export function forwardingStandIn<K extends ServiceName>(
  load: LoadArea,
  name: K,
  methods: readonly (keyof Service<K>)[],
  own: Partial<Service<K>> = {},
): Service<K> {
  const forwarded: Record<PropertyKey, Method> = {}
  for (const method of methods) {
    forwarded[method] = (...args: never[]) =>
      afterLoad(load, (services) => {
        const real = services[name] as Record<PropertyKey, Method | undefined> | undefined
        return real?.[method]?.(...args)
      })
  }
  // Built method by method from names of Service<K>, which the checker cannot follow.
  return { ...forwarded, ...own } as unknown as Service<K>
}

/**
 * The run service's own methods before the runs area arrives: Run shows "preparing" at once (Run
 * disabled, Stop enabled, as with the area loaded) and starts the real run when the area is
 * there; Stop meanwhile cancels it.
 */
export function pendingRun(load: LoadArea): Partial<Service<'run'>> {
  const setPhase = (phase: 'idle' | 'preparing'): void => runStore.getState().actions.setPhase(phase)
  let pending = false
  const settle = (): boolean => {
    if (!pending) return false
    pending = false
    setPhase('idle')
    return true
  }
  const startWith = (go: (run: NonNullable<AppServices['run']>) => void): void => {
    if (isRunActive(runStore.getState().phase)) return
    pending = true
    setPhase('preparing')
    load().then(
      // Back to idle and into the real run in one task: the real run sets "preparing" again.
      (services) => void (settle() && services.run && go(services.run)),
      () => void settle(),
    )
  }
  return {
    run: () => startWith((run) => run.run()),
    runFrom: (nodeId, mode) => startWith((run) => run.runFrom?.(nodeId, mode)),
    stop: () => void settle(),
    showLive: () => runStore.getState().actions.showLive(),
    // No history is held before the area loads (it reads the history when it starts).
    refreshHistory: async () => {},
  }
}
