/**
 * Registers the offline service worker (src/offline/sw.ts, built to `<base>sw.js`) in
 * production builds, once the page has loaded and the main thread is idle: the worker then
 * downloads the whole site (~20 MB with Monaco) in the background, off the main thread, so it
 * never competes with the first paint. A failure is logged and the app simply stays online-only.
 *
 * In development no worker is registered, and one left behind by a production build on the
 * same origin is removed: a cache-first worker serving stale modules is a trap while editing.
 */
import { SERVICE_WORKER_FILE, SERVICE_WORKER_IDLE_TIMEOUT_MS } from '../defaults.ts'

/** What the page sends the active worker to have it precache the deferred files (sw.ts). */
export const PRECACHE_DEFERRED_MESSAGE = 'wardflow:precache-deferred'

export interface RegisterOptions {
  /** Production build (import.meta.env.PROD). */
  production: boolean
  /** The app's base (import.meta.env.BASE_URL): `/`, `/wardflow/` or `./`. */
  base: string
}

export function registerServiceWorker({ production, base }: RegisterOptions): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  const scope = new URL(base || './', document.baseURI).href
  if (!production) {
    void removeWorker(scope)
    return
  }
  afterLoadAndIdle(() => {
    navigator.serviceWorker
      .register(new URL(SERVICE_WORKER_FILE, scope).href, { scope })
      .then(() => navigator.serviceWorker.ready)
      // The worker took over with the app shell cached; now it fetches the large files (Monaco,
      // the tokenizer). Sent on every load, so a download cut short resumes on the next visit.
      .then((registration) => registration.active?.postMessage(PRECACHE_DEFERRED_MESSAGE))
      .catch((error: unknown) => {
        console.warn('Wardflow: offline support is off (the service worker could not be registered).', error)
      })
  })
}

function afterLoadAndIdle(run: () => void): void {
  const whenIdle = (): void => {
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(run, { timeout: SERVICE_WORKER_IDLE_TIMEOUT_MS })
    } else {
      setTimeout(run, 0)
    }
  }
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}

async function removeWorker(scope: string): Promise<void> {
  try {
    const registration = await navigator.serviceWorker.getRegistration(scope)
    if (registration?.scope === scope) await registration.unregister()
  } catch {
    // Nothing to remove, or no access (private mode): nothing to do either way.
  }
}
