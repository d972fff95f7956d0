/**
 * A fetch that keeps the CORS rules a browser keeps, over real HTTP (Node's fetch keeps none):
 * a preflight for non-simple requests, Access-Control-Allow-Origin on every answer, and only
 * safelisted or exposed response headers readable. A refusal is the browser's bare
 * `TypeError: Failed to fetch`, so code under test learns as little as a page would.
 */
import type { FetchLike } from '../../src/engine/index.ts'

const SIMPLE_HEADERS = new Set(['accept', 'accept-language', 'content-language'])
const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'])
const SAFE_RESPONSE = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
])

function refused(): TypeError {
  return new TypeError('Failed to fetch')
}

function listed(value: string | null): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  )
}

function originAllowed(response: Response, origin: string): boolean {
  const allowed = response.headers.get('access-control-allow-origin')
  return allowed === '*' || allowed === origin
}

/** `origin` is the page's; every request in the tests is cross-origin to it. */
export function corsFetch(origin: string): FetchLike {
  return async (input, init = {}) => {
    const url = input
    const method = (init.method ?? 'GET').toUpperCase()
    if (init.mode === 'no-cors') {
      // An opaque answer: the page learns only that something answered.
      try {
        await fetch(url, { method, signal: init.signal ?? null })
      } catch {
        throw refused()
      }
      return new Response(null, { status: 200 })
    }
    const headers = new Headers(init.headers)
    const custom = [...headers.keys()].filter((name) => {
      if (SIMPLE_HEADERS.has(name)) return false
      if (name === 'content-type')
        return !SIMPLE_TYPES.has((headers.get(name) ?? '').split(';')[0]?.trim() ?? '')
      return true
    })
    const simpleMethod = method === 'GET' || method === 'HEAD' || method === 'POST'
    try {
      if (custom.length > 0 || !simpleMethod) {
        const preflight = await fetch(url, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': method,
            ...(custom.length > 0 ? { 'access-control-request-headers': custom.sort().join(',') } : {}),
          },
          signal: init.signal ?? null,
        })
        await preflight.arrayBuffer()
        const allowedHeaders = listed(preflight.headers.get('access-control-allow-headers'))
        const allowedMethods = listed(preflight.headers.get('access-control-allow-methods'))
        if (
          !preflight.ok ||
          !originAllowed(preflight, origin) ||
          (!simpleMethod && !allowedMethods.has(method.toLowerCase()) && !allowedMethods.has('*')) ||
          custom.some((h) => !allowedHeaders.has(h) && !allowedHeaders.has('*'))
        ) {
          throw refused()
        }
      }
      headers.set('origin', origin)
      const response = await fetch(url, { ...init, headers })
      if (!originAllowed(response, origin)) {
        await response.body?.cancel()
        throw refused()
      }
      const exposed = listed(response.headers.get('access-control-expose-headers'))
      const visible = new Headers()
      response.headers.forEach((value, name) => {
        if (SAFE_RESPONSE.has(name) || exposed.has(name)) visible.set(name, value)
      })
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers: visible,
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error
      throw refused()
    }
  }
}
