// @vitest-environment jsdom
/**
 * Registration of the offline service worker (src/offline/registerServiceWorker.ts): production
 * builds register `<base>sw.js` with the base as scope, only after load; a refusal is a warning,
 * never an error; development never registers and removes a worker left on its scope.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PRECACHE_DEFERRED_MESSAGE, registerServiceWorker } from '../../src/offline/registerServiceWorker.ts'

interface FakeContainer {
  register: ReturnType<typeof vi.fn>
  getRegistration: ReturnType<typeof vi.fn>
  ready?: Promise<unknown>
}

function installContainer(container: FakeContainer): void {
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true })
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker')
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('registerServiceWorker', () => {
  it('registers <base>sw.js with the base as its scope once the page has loaded, then asks for the large files', async () => {
    vi.useFakeTimers()
    const postMessage = vi.fn()
    const container = {
      register: vi.fn(() => Promise.resolve({})),
      getRegistration: vi.fn(),
      ready: Promise.resolve({ active: { postMessage } }),
    }
    installContainer(container)
    expect(document.readyState).toBe('complete')
    registerServiceWorker({ production: true, base: '/wardflow/' })
    // Not synchronously: it waits for an idle moment after load.
    expect(container.register).not.toHaveBeenCalled()
    await vi.runAllTimersAsync()
    const scope = new URL('/wardflow/', document.baseURI).href
    expect(container.register).toHaveBeenCalledExactlyOnceWith(`${scope}sw.js`, { scope })
    // Once the worker is in charge (app shell cached), it is asked for the deferred files.
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(PRECACHE_DEFERRED_MESSAGE)
  })

  it('waits for the load event when the page is still loading', async () => {
    vi.useFakeTimers()
    const container = {
      register: vi.fn(() => Promise.resolve({})),
      getRegistration: vi.fn(),
      ready: Promise.resolve({ active: null }),
    }
    installContainer(container)
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true })
    try {
      registerServiceWorker({ production: true, base: '/' })
      await vi.runAllTimersAsync()
      expect(container.register).not.toHaveBeenCalled()
      window.dispatchEvent(new Event('load'))
      await vi.runAllTimersAsync()
      expect(container.register).toHaveBeenCalledOnce()
    } finally {
      Reflect.deleteProperty(document, 'readyState')
    }
  })

  it('logs a refused registration as a warning and carries on', async () => {
    vi.useFakeTimers()
    const refusal = new Error('SecurityError')
    installContainer({ register: vi.fn(() => Promise.reject(refusal)), getRegistration: vi.fn() })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const error = vi.spyOn(console, 'error')
    registerServiceWorker({ production: true, base: './' })
    await vi.runAllTimersAsync()
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('offline support is off'), refusal)
    expect(error).not.toHaveBeenCalled()
  })

  it('never registers in development and removes a worker left on its scope', async () => {
    const unregister = vi.fn(() => Promise.resolve(true))
    const scope = new URL('/', document.baseURI).href
    const container = {
      register: vi.fn(),
      getRegistration: vi.fn(() => Promise.resolve({ scope, unregister })),
    }
    installContainer(container)
    registerServiceWorker({ production: false, base: '/' })
    await vi.waitFor(() => expect(unregister).toHaveBeenCalled())
    expect(container.getRegistration).toHaveBeenCalledWith(scope)
    expect(container.register).not.toHaveBeenCalled()
  })

  it('does nothing where there are no service workers', () => {
    expect('serviceWorker' in navigator).toBe(false)
    expect(() => registerServiceWorker({ production: true, base: '/' })).not.toThrow()
  })
})
