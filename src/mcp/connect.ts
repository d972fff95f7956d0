/**
 * The SDK side of the MCP port (@modelcontextprotocol/sdk), loaded by the hub on the first
 * connection only: a run without MCP tools, and the page's start, never download it.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { MCP_CLOSE_DRAIN_MS } from '../defaults.ts'
import type { FetchLike, McpProgress, McpToolInfo } from '../engine/index.ts'
import { mcpSdk } from './sdk.ts'

export type { Transport }

/** What a connected server offers the hub. */
export interface McpSession {
  tools: readonly McpToolInfo[]
  call(
    name: string,
    args: unknown,
    options: { signal: AbortSignal; timeoutMs: number; onProgress?: (p: McpProgress) => void },
  ): Promise<unknown>
  close(): Promise<void>
  /** Set when the connection ended on its own (a stdio server exited, a stream broke). */
  closed(): boolean
}

export async function httpTransport(
  url: string,
  headers: Readonly<Record<string, string>>,
  fetch?: FetchLike,
): Promise<Transport> {
  const { StreamableHTTPClientTransport } = await mcpSdk()
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...headers } },
    ...(fetch ? { fetch: (input, init) => fetch(input instanceof URL ? input.href : input, init) } : {}),
  })
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Initializes the session and lists its tools (every page of `tools/list`). */
/**
 * A signal of the call's own that follows the run's: the SDK adds an abort listener to the
 * signal of every request and never removes it, so on the run's signal each call of a long
 * Agent run would leave one behind. Ours is dropped with the call; `release` unlinks it.
 */
function callSignal(outer: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController()
  const abort = (): void => controller.abort(outer.reason)
  if (outer.aborted) abort()
  else outer.addEventListener('abort', abort, { once: true })
  return { signal: controller.signal, release: () => outer.removeEventListener('abort', abort) }
}

export async function openSession(
  transport: Transport,
  options: { signal: AbortSignal; timeoutMs: number; clientVersion: string },
): Promise<McpSession> {
  const { Client } = await mcpSdk()
  const client = new Client({ name: 'wardflow', version: options.clientVersion }, { capabilities: {} })
  // Messages still on their way (a Stop's `notifications/cancelled`) are let through before
  // `close`, which would abort them: the server must hear that the call was cancelled.
  const inFlight = new Set<Promise<void>>()
  const send = transport.send.bind(transport)
  transport.send = (message, sendOptions) => {
    const sending = send(message, sendOptions)
    const settled = sending.then(
      () => undefined,
      () => undefined,
    )
    inFlight.add(settled)
    void settled.then(() => inFlight.delete(settled))
    return sending
  }
  // The cap's timer is cleared once the messages are out: a pending one keeps the CLI alive.
  const drain = async (): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const cap = new Promise((done) => (timer = setTimeout(done, MCP_CLOSE_DRAIN_MS)))
    try {
      await Promise.race([Promise.all([...inFlight]), cap])
    } finally {
      clearTimeout(timer)
    }
  }
  let ended = false
  client.onclose = () => {
    ended = true
  }
  // The session outlives the call that opened it: connecting and listing follow that call's
  // signal, and nothing of it stays on that signal once listed.
  const opening = callSignal(options.signal)
  const request = { signal: opening.signal, timeout: options.timeoutMs }
  try {
    await client.connect(transport, request)
    const tools: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, request)
      for (const tool of page.tools) {
        const annotations = isRecord(tool.annotations) ? tool.annotations : undefined
        tools.push({
          name: tool.name,
          description: text(tool.description) || text(tool.title) || text(annotations?.title),
          inputSchema: isRecord(tool.inputSchema) ? tool.inputSchema : { type: 'object' },
          ...(annotations ? { annotations } : {}),
        })
      }
      cursor = page.nextCursor
    } while (cursor !== undefined && cursor !== '')
    return {
      tools,
      call: (name, args, { signal, timeoutMs, onProgress }) => {
        const own = callSignal(signal)
        return client
          .callTool({ name, arguments: isRecord(args) ? args : {} }, undefined, {
            signal: own.signal,
            timeout: timeoutMs,
            ...(onProgress
              ? {
                  onprogress: (p) =>
                    onProgress({
                      progress: p.progress,
                      ...(p.total === undefined ? {} : { total: p.total }),
                      ...(p.message === undefined ? {} : { message: p.message }),
                    }),
                  resetTimeoutOnProgress: false,
                }
              : {}),
          })
          .finally(own.release)
      },
      close: async () => {
        await drain()
        await client.close()
      },
      closed: () => ended,
    }
  } catch (error) {
    await client.close().catch(() => undefined)
    throw error
  } finally {
    opening.release()
  }
}
