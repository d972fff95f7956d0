/**
 * stdio servers for the CLI (Node only): the server is a child process the run starts and
 * stops. Its stderr is kept (the last lines) to explain a server that exits. The transport comes
 * from the SDK's CommonJS build, as the CLI's client does (src/cli/mcpSdk.ts says why), so one
 * copy of the SDK is loaded.
 */
import { createRequire } from 'node:module'
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js'
import { MCP_STDIO_STDERR_TAIL_CHARS } from '../defaults.ts'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpStdioServer } from './servers.ts'

export interface StdioTransport {
  transport: Transport
  /** The end of what the server wrote to stderr. */
  stderrTail(): string
}

const require = createRequire(import.meta.url)

export function stdioTransport(spec: McpStdioServer): StdioTransport {
  const { StdioClientTransport, getDefaultEnvironment } =
    require('@modelcontextprotocol/sdk/client/stdio.js') as typeof StdioModule
  const transport = new StdioClientTransport({
    command: spec.command,
    args: [...spec.args],
    // The SDK's short list (PATH, HOME, …): the CLI's own environment may hold API keys.
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  })
  let tail = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-MCP_STDIO_STDERR_TAIL_CHARS)
  })
  return { transport, stderrTail: () => tail.trim() }
}
