/**
 * Matching keys of recorded calls. A key is the canonical JSON of the request as the flow asked
 * for it: object keys sorted, absent fields dropped, and nothing of how the host serves it (the
 * stream switch, the `--base-url` server, `--model`, headers, keys). Two requests match when
 * their keys are equal; a flow edit that changes a prompt, a tool or a param is a new request.
 */
import { CASSETTE_DIFF_SHOWN_CHARS } from '../defaults.ts'
import type { ChatRequest } from '../engine/index.ts'
import type { HttpRequestKey, ModelRequestKey } from './format.ts'

/** JSON with sorted object keys and no undefined fields: equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)))
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key]
    if (item !== undefined) out[key] = sortKeys(item)
  }
  return out
}

/** The key of a model call: what the node asked, not who answered. */
export function modelRequestKey(providerId: string | undefined, request: ChatRequest): ModelRequestKey {
  return sortKeys({
    provider: providerId ?? '',
    model: request.model,
    messages: request.messages,
    tools: request.tools === undefined || request.tools.length === 0 ? undefined : request.tools,
    toolChoice: request.toolChoice,
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    responseFormat: request.responseFormat,
  }) as ModelRequestKey
}

/** The key of an HTTP request: method, URL and text body (headers are left out: they hold keys). */
export function httpRequestKey(input: string, init?: RequestInit): HttpRequestKey {
  const method = (init?.method ?? 'GET').toUpperCase()
  const body = init?.body
  return {
    method,
    url: input,
    ...(body === undefined || body === null ? {} : { body: typeof body === 'string' ? body : String(body) }),
  }
}

/**
 * Where two keys first differ, as a path and the two values (shortened): what a failed replay
 * prints so the person sees which prompt or param changed since the recording.
 */
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | null {
  if (canonicalJson(expected) === canonicalJson(actual)) return null
  if (
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const a = expected as Record<string, unknown>
    const b = actual as Record<string, unknown>
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort((x, y) =>
      Array.isArray(expected) ? Number(x) - Number(y) : x.localeCompare(y),
    )
    for (const key of keys) {
      const where = Array.isArray(expected) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`
      const found = firstDifference(a[key], b[key], where)
      if (found !== null) return found
    }
  }
  return `${path === '' ? 'the request' : path}: recorded ${shorten(expected)}, now ${shorten(actual)}`
}

/** A value as a difference line shows it, cut at CASSETTE_DIFF_SHOWN_CHARS. */
export function shorten(value: unknown): string {
  if (value === undefined) return '(absent)'
  const text = JSON.stringify(value)
  return text.length > CASSETTE_DIFF_SHOWN_CHARS ? `${text.slice(0, CASSETTE_DIFF_SHOWN_CHARS - 1)}…` : text
}
