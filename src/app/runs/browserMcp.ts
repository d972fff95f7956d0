/**
 * The browser's MCP port (RunContext.mcp), like the CLI's `--mcp` (src/cli/mcp.ts) but from the
 * settings' servers, their header values unlocked like API keys. The hub and the SDK load on the
 * first `listTools` only: a run without `mcp` tools never downloads them.
 */
import { FlowError, type FetchLike, type McpPort } from '../../engine/index.ts'
import type { McpServerSpec } from '../../mcp/servers.ts'
import type { AppSettings } from '../../settings/schema.ts'

export interface BrowserMcpDeps {
  settings: () => AppSettings
  fetch: FetchLike
  /** Unlocks the keys when locked; false when they stay locked. */
  unlock: () => Promise<boolean>
  isLocked: () => boolean
}

function specs(settings: AppSettings): McpServerSpec[] {
  return settings.mcpServers.map((s) => ({
    id: s.id,
    ...(s.name === '' ? {} : { name: s.name }),
    transport: 'http',
    url: s.url,
    headers: Object.fromEntries(
      s.headers.filter((h) => h.key.trim() !== '').map((h) => [h.key.trim(), h.value]),
    ),
  }))
}

/** One port per run: its connections close when the run ends (`close`). */
export function browserMcp(deps: BrowserMcpDeps): McpPort {
  let hub: Promise<McpPort> | undefined
  const load = (): Promise<McpPort> => {
    hub ??= (async () => {
      const needsKeys = deps.settings().mcpServers.some((s) => s.headers.length > 0)
      if (needsKeys && deps.isLocked() && !(await deps.unlock())) {
        throw new FlowError(
          'KEY_LOCKED',
          'The header values of the MCP servers are locked; unlock your keys with your passphrase in Settings, then run again.',
        )
      }
      const [{ createMcpHub }, { httpTransport }] = await Promise.all([
        import('../../mcp/hub.ts'),
        import('../../mcp/connect.ts'),
      ])
      return createMcpHub({
        servers: specs(deps.settings()),
        clientVersion: '0',
        open: async (spec) => {
          if (spec.transport !== 'http')
            throw new FlowError('MCP_UNREACHABLE', `MCP server "${spec.id}" needs the CLI.`)
          return { transport: await httpTransport(spec.url, spec.headers ?? {}, deps.fetch) }
        },
      })
    })()
    hub.catch(() => (hub = undefined))
    return hub
  }
  return {
    servers: () => deps.settings().mcpServers.map((s) => s.id),
    listTools: async (serverId, signal) => (await load()).listTools(serverId, signal),
    callTool: async (serverId, name, args, options) => (await load()).callTool(serverId, name, args, options),
    close: async () => {
      if (hub) await (await hub.catch(() => undefined))?.close()
    },
  }
}
