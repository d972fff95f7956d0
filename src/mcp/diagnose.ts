/**
 * The settings' "Test" of an MCP server: connects with the SDK and lists the tools, or finds out
 * why not. A browser hides why a cross-origin request failed (every CORS refusal is the same
 * `TypeError`), so on failure a few probe requests tell the cases apart, each answering one
 * question: is anything listening (no-cors), does a plain request pass (Allow-Origin), does the
 * initialize POST pass its preflight (Allow-Headers), does the follow-up with
 * `mcp-protocol-version` pass (Allow-Headers), and was the session id readable (Expose-Headers).
 */
import { HTTP_ERROR_BODY_MAX_CHARS, MCP_CONNECT_TIMEOUT_MS, MCP_PROBE_TIMEOUT_MS } from '../defaults.ts'
import type { FetchLike } from '../engine/index.ts'
import { describeMcpError } from './errorText.ts'

/** One tool as the check lists it (plain text, shown as text). */
export interface McpCheckTool {
  name: string
  description: string
}

export type McpCheck =
  | { ok: true; tools: McpCheckTool[] }
  | { ok: false; reason: 'badUrl' }
  | { ok: false; reason: 'unreachable' }
  | { ok: false; reason: 'http'; status: number; detail: string }
  | { ok: false; reason: 'corsOrigin' }
  /** The preflight refused these request headers (lower case). */
  | { ok: false; reason: 'corsHeaders'; headers: string[] }
  | { ok: false; reason: 'corsExpose' }
  | { ok: false; reason: 'failed'; detail: string }

export interface McpCheckInput {
  url: string
  headers: Readonly<Record<string, string>>
  fetch: FetchLike
  connectTimeoutMs?: number
  probeTimeoutMs?: number
}

/** The protocol version a probe asks for when the server's own answer does not say. */
const PROBE_PROTOCOL_VERSION = '2025-06-18'

function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: PROBE_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'wardflow-check', version: '0' },
    },
  })
}

const JSON_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

type ProbeOutcome = { response: Response } | { error: unknown }

async function probe(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    return { response: await fetch(url, { ...init, signal: controller.signal }) }
  } catch (error) {
    return { error }
  } finally {
    clearTimeout(timer)
  }
}

/** The body's text, at most HTTP_ERROR_BODY_MAX_CHARS, '' when it cannot be read in time. */
async function bodyText(response: Response, timeoutMs: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<string>((done) => (timer = setTimeout(() => done(''), timeoutMs)))
  try {
    const text = await Promise.race([response.text().catch(() => ''), late])
    return text.slice(0, HTTP_ERROR_BODY_MAX_CHARS).trim()
  } finally {
    clearTimeout(timer)
  }
}

/** Why the connection failed, asked of the server with plain requests. */
async function diagnose(input: McpCheckInput, cause: unknown): Promise<McpCheck> {
  const wait = input.probeTimeoutMs ?? MCP_PROBE_TIMEOUT_MS
  const own = Object.keys(input.headers).map((h) => h.toLowerCase())
  const first = await probe(
    input.fetch,
    input.url,
    { method: 'POST', headers: { ...JSON_ACCEPT, ...input.headers }, body: initializeBody() },
    wait,
  )
  if ('error' in first) {
    const reach = await probe(input.fetch, input.url, { method: 'GET', mode: 'no-cors' }, wait)
    if ('error' in reach) return { ok: false, reason: 'unreachable' }
    const simple = await probe(input.fetch, input.url, { method: 'GET' }, wait)
    if ('error' in simple) return { ok: false, reason: 'corsOrigin' }
    return { ok: false, reason: 'corsHeaders', headers: ['content-type', ...own] }
  }
  const { response } = first
  if (!response.ok) {
    return { ok: false, reason: 'http', status: response.status, detail: await bodyText(response, wait) }
  }
  const session = response.headers.get('mcp-session-id')
  const answer = await bodyText(response, wait)
  const version = /"protocolVersion"\s*:\s*"([^"]+)"/.exec(answer)?.[1] ?? PROBE_PROTOCOL_VERSION
  const second = await probe(
    input.fetch,
    input.url,
    {
      method: 'POST',
      headers: {
        ...JSON_ACCEPT,
        ...input.headers,
        'mcp-protocol-version': version,
        ...(session === null ? {} : { 'mcp-session-id': session }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    },
    wait,
  )
  if ('error' in second) {
    return {
      ok: false,
      reason: 'corsHeaders',
      headers: ['mcp-protocol-version', ...(session === null ? [] : ['mcp-session-id'])],
    }
  }
  // A server that keeps sessions refuses the follow-up without the id it sent, which the page
  // could not read: it did not expose the header.
  if (session === null && second.response.status === 400) return { ok: false, reason: 'corsExpose' }
  if (!second.response.ok && second.response.status !== 202) {
    return {
      ok: false,
      reason: 'http',
      status: second.response.status,
      detail: await bodyText(second.response, wait),
    }
  }
  return {
    ok: false,
    reason: 'failed',
    detail: describeMcpError(cause, input.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS),
  }
}

/** Connects to the server, lists its tools and closes; or says exactly why it cannot. */
export async function checkMcpServer(input: McpCheckInput): Promise<McpCheck> {
  try {
    const url = new URL(input.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'badUrl' }
  } catch {
    return { ok: false, reason: 'badUrl' }
  }
  const { httpTransport, openSession } = await import('./connect.ts')
  const timeoutMs = input.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS
  const controller = new AbortController()
  try {
    const session = await openSession(await httpTransport(input.url, input.headers, input.fetch), {
      signal: controller.signal,
      timeoutMs,
      clientVersion: '0',
    })
    await session.close().catch(() => undefined)
    return { ok: true, tools: session.tools.map((t) => ({ name: t.name, description: t.description })) }
  } catch (error) {
    return diagnose(input, error)
  }
}
