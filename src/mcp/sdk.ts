/**
 * Where the MCP SDK's classes come from. By default its ES modules, loaded on the first
 * connection (in the page they are a chunk of their own). The CLI, which runs through tsx,
 * loads the SDK's CommonJS build instead (src/cli/mcpSdk.ts): tsx's ES-module hooks cost each of
 * the SDK's many modules a round trip to the loader thread, about 300 ms of CPU for a first
 * connection against about 160 ms through require (bench/mcp.bench.ts). The classes are used
 * through their interfaces only (no instanceof), so either build serves.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export interface McpSdk {
  Client: typeof Client
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport
}

async function esModules(): Promise<McpSdk> {
  const [client, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ])
  return { Client: client.Client, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport }
}

let load: () => Promise<McpSdk> = esModules
let loaded: Promise<McpSdk> | undefined

/** The SDK's classes, loaded once per process or page. */
export function mcpSdk(): Promise<McpSdk> {
  loaded ??= load()
  // A failed load (a chunk that did not arrive) is tried again by the next connection.
  loaded.catch(() => (loaded = undefined))
  return loaded
}

/** Loads the SDK with `loader` from now on (the CLI's CommonJS build); call before connecting. */
export function loadMcpSdkWith(loader: () => Promise<McpSdk>): void {
  load = loader
  loaded = undefined
}
