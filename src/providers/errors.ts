/**
 * Turns HTTP statuses, network failures and error bodies into FlowErrors a person can act on.
 * Shared by every HTTP provider adapter.
 */
import { PROVIDER_ERROR_BODY_MAX_CHARS } from '../defaults.ts'
import { FlowError, isAbortError, type FlowErrorCode } from '../engine/index.ts'

/** What the messages name: which provider, which model, which URL. */
export interface CallTarget {
  /** The provider's label from settings, e.g. "OpenAI". */
  label: string
  model: string
  /** The URL that was requested. */
  url: string
}

/** The FlowError for an aborted call. */
export function cancelledError(cause?: unknown): FlowError {
  return new FlowError('CANCELLED', 'The run was stopped.', { cause })
}

/** Statuses worth retrying: rate limits, timeouts and server errors (never 4xx mistakes). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500
}

/**
 * Milliseconds a Retry-After (or OpenAI's retry-after-ms) header asks to wait, or undefined when
 * absent or unreadable. Accepts delay-seconds and HTTP dates.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}

/**
 * The human part of an error body: OpenAI/Anthropic `{error:{message}}`, Ollama `{error:"..."}`,
 * vLLM/FastAPI `{message}` / `{detail}`, or short plain text. HTML pages are not quoted.
 */
export function extractServerMessage(body: string): string {
  const text = body.trim()
  if (text === '') return ''
  try {
    const found = findMessage(JSON.parse(text) as unknown)
    if (found !== undefined) return clip(found)
  } catch {
    // Not JSON: fall through to plain text.
  }
  if (/^<(!doctype|html)/i.test(text)) return ''
  return clip(text)
}

function findMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null || depth > 3) return undefined
  const record = value as Record<string, unknown>
  for (const key of ['error', 'message', 'detail', 'msg']) {
    const found = findMessage(record[key], depth + 1)
    if (found !== undefined && found !== '') return found
  }
  if (Array.isArray(value)) return findMessage(value[0], depth + 1)
  return undefined
}

function clip(text: string): string {
  return text.length > PROVIDER_ERROR_BODY_MAX_CHARS
    ? `${text.slice(0, PROVIDER_ERROR_BODY_MAX_CHARS)}…`
    : text
}

function saying(serverMessage: string): string {
  return serverMessage === '' ? '' : ` The server said: ${serverMessage}`
}

/** Maps a final (non-retried) HTTP error status to the FlowError a person sees. */
export function httpStatusError(
  status: number,
  serverMessage: string,
  target: CallTarget,
  extra: { attempts?: number; retryAfterMs?: number } = {},
): FlowError {
  const details = { status, provider: target.label, model: target.model, url: target.url }
  const make = (code: FlowErrorCode, message: string) =>
    new FlowError(code, message, { details: { ...details, ...extra } })
  if (status === 401 || status === 403) {
    return make(
      'PROVIDER_AUTH',
      `${target.label} refused the API key (HTTP ${status}): the API key was refused; check it in Settings.${saying(serverMessage)}`,
    )
  }
  if (status === 404) {
    return make(
      'PROVIDER_MODEL_NOT_FOUND',
      `${target.label} does not know the model "${target.model}" (HTTP 404). Check the model name, and that the base URL is right (${target.url}).${saying(serverMessage)}`,
    )
  }
  if (status === 429) {
    const wait =
      extra.retryAfterMs !== undefined
        ? ` It asked to wait ${Math.ceil(extra.retryAfterMs / 1000)} s, longer than Wardflow waits; try again later.`
        : ` Still limited after ${extra.attempts ?? 1} attempts; wait a moment and run again, or check your plan's limits.`
    return make(
      'PROVIDER_RATE_LIMIT',
      `${target.label} is rate limiting requests (HTTP 429).${wait}${saying(serverMessage)}`,
    )
  }
  if (status >= 500 || status === 408) {
    return make(
      'PROVIDER_SERVER',
      `${target.label} had a server error (HTTP ${status}) on ${extra.attempts ?? 1} attempt(s); try again later.${saying(serverMessage)}`,
    )
  }
  return make(
    'PROVIDER_BAD_REQUEST',
    `${target.label} rejected the request (HTTP ${status}): ${serverMessage === '' ? 'no reason given' : serverMessage}`,
  )
}

/** True when the URL looks like a local Ollama server, whose CORS needs OLLAMA_ORIGINS. */
export function looksLikeOllama(url: string): boolean {
  return /:11434(\/|$)/.test(url) || /ollama/i.test(url)
}

/** A fetch that threw before any status arrived: network down, DNS, refused, or CORS. */
export function networkError(cause: unknown, target: CallTarget): FlowError {
  const reason = cause instanceof Error ? cause.message : String(cause)
  let hint =
    ' The server may be down or unreachable, or it does not allow requests from this page (CORS): check the base URL, that the server runs, and its CORS settings.'
  if (looksLikeOllama(target.url)) {
    hint +=
      ' For Ollama, allow this page: set OLLAMA_ORIGINS (for example OLLAMA_ORIGINS="*") in the environment of Ollama and restart it.'
  } else if (/:1234(\/|$)/.test(target.url)) {
    hint += ' For LM Studio, turn on "Enable CORS" in its server settings.'
  }
  return new FlowError(
    'PROVIDER_NETWORK',
    `Could not reach ${target.label} at ${target.url} (${reason}).${hint}`,
    {
      cause,
      details: { provider: target.label, url: target.url },
    },
  )
}

/**
 * A stream that broke after the reply had started. The transport cannot tell how much of the
 * reply was shown (it reads the SSE framing), so the reader that can says it: `withShownChars`.
 */
export function droppedError(cause: unknown, target: CallTarget, shownChars?: number): FlowError {
  const reason = cause instanceof Error && cause.message !== '' ? ` (${cause.message})` : ''
  const after = shownChars === undefined ? '' : `, after ${shownChars} characters`
  return new FlowError(
    'PROVIDER_NETWORK',
    `The connection to ${target.label} dropped in the middle of the reply${reason}${after}. Run the node again.`,
    { cause, details: { provider: target.label, url: target.url, dropped: true } },
  )
}

/** Characters as a person counts them: a character outside the BMP (an emoji) is one, not two. */
export function charCount(text: string): number {
  let pairs = 0
  for (let i = 0; i < text.length - 1; i += 1) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1
        i += 1
      }
    }
  }
  return text.length - pairs
}

/** A dropped-stream error from the transport, told how much of the reply was shown. */
export function withShownChars(error: unknown, target: CallTarget, shownText: string): unknown {
  if (!(error instanceof FlowError) || error.details?.['dropped'] !== true) return error
  return droppedError(error.cause, target, charCount(shownText))
}

/** A reply that is not what the API promises. */
export function badResponseError(target: CallTarget, what: string, cause?: unknown): FlowError {
  return new FlowError(
    'PROVIDER_BAD_RESPONSE',
    `${target.label} sent a reply Wardflow cannot understand: ${what}. Check that the base URL (${target.url}) points to a ${
      /anthropic/i.test(target.url) ? 'Anthropic' : 'compatible'
    } API.`,
    { cause, details: { provider: target.label, url: target.url } },
  )
}

/** Maps whatever a fetch or read threw: aborts become CANCELLED, FlowErrors pass through. */
export function fromThrown(
  error: unknown,
  signal: AbortSignal,
  fallback: (e: unknown) => FlowError,
): FlowError {
  if (error instanceof FlowError) return error
  if (signal.aborted || isAbortError(error)) return cancelledError(error)
  return fallback(error)
}
