/** The CLI's MCP servers (`--mcp`): Streamable HTTP, or a stdio command the run starts and stops. */
import type { McpPort } from '../engine/index.ts'
import { createMcpHub } from '../mcp/hub.ts'
import type { McpServerSpec } from '../mcp/servers.ts'
import { useCommonJsMcpSdk } from './mcpSdk.ts'

export function cliMcp(servers: readonly McpServerSpec[], clientVersion: string): McpPort | undefined {
  if (servers.length === 0) return undefined
  useCommonJsMcpSdk()
  return createMcpHub({
    servers,
    clientVersion,
    open: async (spec) => {
      if (spec.transport === 'http') {
        const { httpTransport } = await import('../mcp/connect.ts')
        return { transport: await httpTransport(spec.url, spec.headers ?? {}) }
      }
      const { stdioTransport } = await import('../mcp/stdio.ts')
      const { transport, stderrTail } = stdioTransport(spec)
      return { transport, explain: stderrTail }
    },
  })
}
