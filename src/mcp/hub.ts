/**
 * The MCP port behind `RunContext.mcp`: one connection per server per run, opened on the first
 * `listTools` (the SDK loads then), reused by every call, closed when the run ends. Failures
 * become FlowErrors naming the server (MCP_UNREACHABLE), so an Agent node fails with it.
 */
import { MCP_CONNECT_TIMEOUT_MS } from '../defaults.ts'
import {
  FlowError,
  isAbortError,
  type McpCallOptions,
  type McpCallResult,
  type McpPort,
  type McpToolInfo,
} from '../engine/index.ts'
import type { McpSession, Transport } from './connect.ts'
import { describeMcpError, isMcpTimeout } from './errorText.ts'
import { callResultText } from './result.ts'
import { serverLabel, type McpServerSpec } from './servers.ts'

/** Makes the transport of a server; `explain` adds what the transport knows of a failure. */
export interface OpenedTransport {
  transport: Transport
  explain?: () => string
}

export interface McpHubOptions {
  servers: readonly McpServerSpec[]
  /** Makes a transport for a server; by default Streamable HTTP (stdio is the CLI's). */
  open?: (spec: McpServerSpec) => Promise<OpenedTransport>
  connectTimeoutMs?: number
  clientVersion?: string
}

async function defaultOpen(spec: McpServerSpec): Promise<OpenedTransport> {
  if (spec.transport !== 'http') {
    throw new FlowError(
      'MCP_UNREACHABLE',
      `MCP server ${serverLabel(spec)} uses stdio, which only the CLI can start.`,
    )
  }
  const { httpTransport } = await import('./connect.ts')
  return { transport: await httpTransport(spec.url, spec.headers ?? {}) }
}

function where(spec: McpServerSpec): string {
  return spec.transport === 'http' ? spec.url : [spec.command, ...spec.args].join(' ')
}

export function createMcpHub(options: McpHubOptions): McpPort {
  const byId = new Map(options.servers.map((s) => [s.id, s]))
  const sessions = new Map<string, Promise<{ session: McpSession; explain?: () => string }>>()
  const open = options.open ?? defaultOpen
  const timeoutMs = options.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS

  function specOf(serverId: string): McpServerSpec {
    const spec = byId.get(serverId)
    if (spec) return spec
    const known = [...byId.keys()]
    throw new FlowError(
      'MCP_UNREACHABLE',
      `MCP server "${serverId}" is not configured${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}. Add it in Settings > MCP servers (the CLI: --mcp ${serverId}=<url>).`,
      { details: { server: serverId } },
    )
  }

  function connect(serverId: string, signal: AbortSignal) {
    const existing = sessions.get(serverId)
    if (existing) return existing
    const spec = specOf(serverId)
    const pending = (async () => {
      const { openSession } = await import('./connect.ts')
      const opened = await open(spec)
      try {
        const session = await openSession(opened.transport, {
          signal,
          timeoutMs,
          clientVersion: options.clientVersion ?? '0',
        })
        return { session, ...(opened.explain ? { explain: opened.explain } : {}) }
      } catch (error) {
        if (signal.aborted) throw error
        const extra = opened.explain?.() ?? ''
        throw new FlowError(
          'MCP_UNREACHABLE',
          `MCP server ${serverLabel(spec)} could not be used at ${where(spec)}: ${describeMcpError(error, timeoutMs)}${extra ? ` Its output: ${extra}` : ''}`,
          { cause: error, details: { server: spec.id } },
        )
      }
    })()
    sessions.set(serverId, pending)
    // A failed connection is tried again by the next node that asks.
    pending.catch(() => sessions.delete(serverId))
    return pending
  }

  return {
    servers: () => [...byId.keys()],
    async listTools(serverId: string, signal: AbortSignal): Promise<readonly McpToolInfo[]> {
      return (await connect(serverId, signal)).session.tools
    },
    async callTool(
      serverId: string,
      name: string,
      args: unknown,
      call: McpCallOptions,
    ): Promise<McpCallResult> {
      const spec = specOf(serverId)
      const { session, explain } = await connect(serverId, call.signal)
      try {
        return callResultText(await session.call(name, args, call))
      } catch (error) {
        if (call.signal.aborted || isAbortError(error)) throw error
        const timedOut = isMcpTimeout(error)
        const extra = session.closed() ? (explain?.() ?? '') : ''
        if (session.closed()) sessions.delete(serverId)
        throw new FlowError(
          timedOut ? 'HTTP_TIMEOUT' : 'MCP_UNREACHABLE',
          timedOut
            ? `MCP server ${serverLabel(spec)} did not answer "${name}" within ${call.timeoutMs} ms.`
            : `MCP server ${serverLabel(spec)} failed during "${name}": ${describeMcpError(error, call.timeoutMs)}${extra ? ` Its output: ${extra}` : ''}`,
          { cause: error, details: { server: spec.id } },
        )
      }
    },
    async close(): Promise<void> {
      const all = [...sessions.values()]
      sessions.clear()
      await Promise.all(all.map((p) => p.then((s) => s.session.close()).catch(() => undefined)))
    },
  }
}
