/**
 * The CLI loads the MCP SDK's CommonJS build (why: src/mcp/sdk.ts): require goes through tsx's
 * in-thread CommonJS hook, not its ES-module loader thread, and halves a first connection's CPU.
 */
import { createRequire } from 'node:module'
import { loadMcpSdkWith, type McpSdk } from '../mcp/sdk.ts'

const require = createRequire(import.meta.url)

/** From now on, connections of this process use the SDK's CommonJS build. */
export function useCommonJsMcpSdk(): void {
  loadMcpSdkWith(async () => ({
    Client: (require('@modelcontextprotocol/sdk/client/index.js') as Pick<McpSdk, 'Client'>).Client,
    StreamableHTTPClientTransport: (
      require('@modelcontextprotocol/sdk/client/streamableHttp.js') as Pick<
        McpSdk,
        'StreamableHTTPClientTransport'
      >
    ).StreamableHTTPClientTransport,
  }))
}
