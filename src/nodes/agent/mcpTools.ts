/**
 * An Agent's `mcp` tool entries: each asks `RunContext.mcp` for its server's tools and offers
 * them to the model with their own names, descriptions and input schemas. Calls run under the
 * loop's guard and watchdog like every tool; progress notifications become console lines.
 */
import { AGENT_WATCHDOG_GRACE_MS, MCP_MAX_TOOLS_PER_SERVER } from '../../defaults.ts'
import {
  FlowError,
  type AgentProtection,
  type AgentTool,
  type McpProgress,
  type McpToolInfo,
  type NodeExecution,
} from '../../engine/index.ts'
import type { AgentConfig, AgentToolConfig } from './schema.ts'

/** Names OpenAI and Anthropic accept; an MCP name with other characters is spelled with `_`. */
export function modelToolName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool'
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const suffix = `_${n}`
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

export function progressLine(tool: string, p: McpProgress): string {
  const amount = p.total === undefined ? `${p.progress}` : `${p.progress}/${p.total}`
  return `  [MCP progress] ${tool}: ${amount}${p.message ? ` ${p.message}` : ''}\n`
}

/** The tools one server offers through one `mcp` entry (filtered by `include`). */
function pick(tools: readonly McpToolInfo[], entry: AgentToolConfig, server: string): McpToolInfo[] {
  if (entry.include === undefined || entry.include.length === 0)
    return tools.slice(0, MCP_MAX_TOOLS_PER_SERVER)
  const byName = new Map(tools.map((t) => [t.name, t]))
  const missing = entry.include.filter((name) => !byName.has(name))
  if (missing.length > 0) {
    throw new FlowError(
      'MCP_UNREACHABLE',
      `MCP server "${server}" has no tool ${missing.map((m) => `"${m}"`).join(', ')} (it offers: ${tools.map((t) => t.name).join(', ') || 'none'}).`,
      { details: { server } },
    )
  }
  return entry.include.map((name) => byName.get(name) as McpToolInfo)
}

/** Builds the MCP tools of every `mcp` entry; `taken` holds the names already used. */
export async function buildMcpTools(
  exec: NodeExecution<AgentConfig>,
  protection: AgentProtection,
  entries: readonly AgentToolConfig[],
  taken: Set<string>,
): Promise<AgentTool[]> {
  const mcp = exec.ctx.mcp
  const built: AgentTool[] = []
  for (const entry of entries) {
    const server = (entry.server ?? '').trim()
    if (!mcp) {
      throw new FlowError(
        'MCP_UNREACHABLE',
        `MCP server "${server}" is not set up: add it in Settings > MCP servers (the CLI: --mcp ${server}=<url>).`,
        { nodeId: exec.node.id, details: { server } },
      )
    }
    const tools = pick(await mcp.listTools(server, exec.signal), entry, server)
    for (const info of tools) {
      const name = modelToolName(info.name, taken)
      taken.add(name)
      built.push({
        spec: { name, description: info.description, parameters: info.inputSchema },
        timeoutMs: protection.toolTimeoutMs + AGENT_WATCHDOG_GRACE_MS,
        ...(info.annotations?.destructiveHint === true ? { approvalDefault: 'ask' as const } : {}),
        // The entry's own approval wins; a tool the server marks destructive asks by default.
        ...approvalOf(entry.approval, info.annotations?.destructiveHint === true),
        run: async (args, signal) => {
          const reply = await mcp.callTool(server, info.name, args, {
            signal,
            timeoutMs: protection.toolTimeoutMs,
            onProgress: (p) => exec.emit.chunk(progressLine(info.name, p), 'log'),
          })
          // The tool said it failed: the model reads `Error executing tool …` with its words.
          if (reply.isError) throw new Error(reply.text || 'the tool reported an error without a message')
          return reply.text
        },
      })
    }
  }
  return built
}

/** The approval a server tool runs under: the entry's, else `ask` for a destructive tool. */
function approvalOf(own: AgentToolConfig['approval'], destructive: boolean): Pick<AgentTool, 'approval'> {
  const approval = own ?? (destructive ? 'ask' : undefined)
  return approval === undefined ? {} : { approval }
}
