/**
 * What each on-demand area publishes before its code has loaded (createApp.ts): every call
 * loads the area, then forwards to the service it installed in the stand-in's place. A failed
 * load is already reported in the banner by createApp; here it only ends the call.
 */
import { isRunActive, runStore } from '../../store/runStore.ts'
import { settingsUiStore } from '../../store/settingsUiStore.ts'
import type { AppServices } from '../../ui/services.ts'

type Load = () => Promise<AppServices>

/** Loads the area, then calls `call` with its services; resolves undefined when the load failed. */
async function after<T>(load: Load, call: (services: AppServices) => T): Promise<Awaited<T> | undefined> {
  let services: AppServices
  try {
    services = await load()
  } catch {
    return undefined
  }
  return await call(services)
}

export function runStandIns(load: Load): Partial<AppServices> {
  const setPhase = (phase: 'idle' | 'preparing'): void => runStore.getState().actions.setPhase(phase)
  /** A Run click waiting for the area's code; Stop meanwhile cancels it. */
  let pending = false
  return {
    run: {
      run() {
        if (isRunActive(runStore.getState().phase)) return
        // "Preparing" at once, as with the area loaded: Run is disabled and Stop enabled.
        pending = true
        setPhase('preparing')
        load().then(
          (services) => {
            if (!pending) return
            pending = false
            // Back to idle and into the real run in one task: the real run sets "preparing" again.
            setPhase('idle')
            services.run?.run()
          },
          () => {
            if (!pending) return
            pending = false
            setPhase('idle')
          },
        )
      },
      stop() {
        if (!pending) return
        pending = false
        setPhase('idle')
      },
      openRun: async (id) => void (await after(load, (s) => s.run?.openRun?.(id))),
      showLive: () => runStore.getState().actions.showLive(),
      // No history is held before the area loads (it reads the history when it starts).
      refreshHistory: async () => {},
    },
  }
}

export function settingsStandIns(load: Load): Partial<AppServices> {
  return {
    settings: {
      open() {
        // Open at once: the dialog shows as soon as its code lands.
        settingsUiStore.getState().openSettings()
        void load().catch(() => settingsUiStore.getState().closeSettings())
      },
    },
  }
}

export function workflowsStandIns(load: Load): Partial<AppServices> {
  return {
    import: { importFile: async (file) => void (await after(load, (s) => s.import?.importFile(file))) },
    export: { exportWorkflow: async () => void (await after(load, (s) => s.export?.exportWorkflow())) },
  }
}

export function templatesStandIns(load: Load): Partial<AppServices> {
  return {
    templates: {
      openGallery: () => void after(load, (s) => s.templates?.openGallery()),
      openLoopBreaker: () => void after(load, (s) => s.templates?.openLoopBreaker()),
      openTemplate: async (id) => (await after(load, (s) => s.templates?.openTemplate?.(id))) ?? false,
    },
  }
}
