/**
 * The MCP port (flow-control.md, "MCP tools and approval"): how an Agent's `mcp` tools reach
 * MCP servers. The engine and the Agent node only see this interface; the SDK-backed
 * implementation is `src/mcp/` (Streamable HTTP in the browser and the CLI, stdio in the CLI).
 */

/** What a server's tool annotations say (MCP `ToolAnnotations`); hints, never guarantees. */
export interface McpToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/** One tool a server offers, as `tools/list` described it. */
export interface McpToolInfo {
  name: string
  /** Plain text (shown as text, never as HTML). */
  description: string
  /** JSON Schema of the arguments object. */
  inputSchema: Record<string, unknown>
  annotations?: McpToolAnnotations
}

/** One progress notification of a running call (`notifications/progress`). */
export interface McpProgress {
  progress: number
  total?: number
  message?: string
}

export interface McpCallOptions {
  /** Aborting it cancels the request on the server (`notifications/cancelled`). */
  signal: AbortSignal
  /** The call's own deadline in ms (the agent's watchdog is the outer backstop). */
  timeoutMs: number
  onProgress?: (progress: McpProgress) => void
}

/** A call's reply turned into text: `isError` when the tool itself reported a failure. */
export interface McpCallResult {
  text: string
  isError: boolean
}

export interface McpPort {
  /** The ids of the servers this host knows (settings in the browser, `--mcp` in the CLI). */
  servers(): readonly string[]
  /**
   * Connects (once per run) and lists the server's tools. Rejects with a FlowError naming the
   * server when it is unknown, unreachable or refuses the connection.
   */
  listTools(serverId: string, signal: AbortSignal): Promise<readonly McpToolInfo[]>
  callTool(serverId: string, name: string, args: unknown, options: McpCallOptions): Promise<McpCallResult>
  /** Closes this run's connections (stdio servers are stopped). */
  close(): Promise<void>
}
