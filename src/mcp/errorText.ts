/**
 * Words what went wrong talking to an MCP server, from what the SDK and fetch throw: refused or
 * unknown host, an HTTP status with the server's own words, a timeout, a closed connection.
 * Never the request's headers (they may hold secrets).
 */
import { HTTP_ERROR_BODY_MAX_CHARS } from '../defaults.ts'

interface Coded {
  code?: unknown
  message?: unknown
  cause?: unknown
}

function coded(value: unknown): Coded {
  return typeof value === 'object' && value !== null ? (value as Coded) : {}
}

const NET_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENOENT: 'command not found',
  EACCES: 'permission denied',
}

/** The system error code somewhere in the cause chain (`fetch failed` hides it in `cause`). */
function systemCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current; depth++) {
    const { code, cause } = coded(current)
    if (typeof code === 'string' && NET_CODES[code]) return code
    const errors = (current as { errors?: unknown }).errors
    if (Array.isArray(errors)) {
      const inner = errors.map(systemCode).find((c) => c !== undefined)
      if (inner) return inner
    }
    current = cause
  }
  return undefined
}

/** The SDK's own request timeout (McpError -32001). */
export function isMcpTimeout(error: unknown): boolean {
  return coded(error).code === -32001
}

/** The HTTP status of a StreamableHTTPError (its `code`), or undefined. */
function httpStatusOf(error: unknown): number | undefined {
  const { code, message } = coded(error)
  if (typeof message !== 'string' || !message.startsWith('Streamable HTTP error')) return undefined
  return typeof code === 'number' && code >= 100 && code <= 599 ? code : undefined
}

export function describeMcpError(error: unknown, timeoutMs: number): string {
  const system = systemCode(error)
  if (system) return `${NET_CODES[system]}.`
  const { code, message } = coded(error)
  const text = typeof message === 'string' ? message : String(error)
  const status = httpStatusOf(error)
  if (status !== undefined) {
    const body = text.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '').trim()
    return `HTTP ${status}${body ? `: ${body.slice(0, HTTP_ERROR_BODY_MAX_CHARS)}` : ''}.`
  }
  if (isMcpTimeout(error)) return `no answer within ${timeoutMs} ms.`
  if (code === -32000) return 'the connection closed (the server stopped or broke the stream).'
  if (text === 'Failed to fetch' || text === 'fetch failed' || text.startsWith('NetworkError')) {
    return 'the server could not be reached (not running, wrong address, or refused by CORS in a browser).'
  }
  return text.endsWith('.') ? text : `${text}.`
}
