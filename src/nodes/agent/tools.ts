/**
 * Builds the agent loop's tools from an Agent node's tool configs: `code` tools run in the
 * sandbox, `http` tools send the arguments as JSON with a timeout, `node` tools run another node
 * of the flow. Each turns its result into the observation text the model reads.
 */
import {
  AGENT_WATCHDOG_GRACE_MS,
  HTTP_ERROR_BODY_MAX_CHARS,
  HTTP_MAX_RESPONSE_BYTES,
} from '../../defaults.ts'
import {
  FlowError,
  isAbortError,
  type AgentProtection,
  type AgentTool,
  type NodeExecution,
} from '../../engine/index.ts'
import type { AgentConfig, AgentToolConfig } from './schema.ts'
import { resolveRequestUrl } from '../http/url.ts'
import { buildMcpTools } from './mcpTools.ts'

/** Tool results become text: strings as they are, anything else as JSON. */
export function observationText(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    return String(value)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function codeTool(
  tool: AgentToolConfig,
  exec: NodeExecution<AgentConfig>,
  p: AgentProtection,
): AgentTool['run'] {
  return async (args, signal) => {
    const { result, logs } = await exec.ctx.codeRunner.run({
      code: tool.code ?? '',
      // `inputs` too, so tools written for PatchCat (which read `inputs`) run unchanged.
      bindings: { args, inputs: args },
      timeoutMs: p.sandboxTimeoutMs,
      signal,
    })
    for (const line of logs) exec.emit.chunk(`  ${line}\n`, 'log')
    return observationText(result)
  }
}

/** Reads the body as text, refusing more than HTTP_MAX_RESPONSE_BYTES. */
async function readText(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    bytes += value.byteLength
    if (bytes > HTTP_MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw new FlowError('HTTP_TOO_LARGE', `The response is larger than ${HTTP_MAX_RESPONSE_BYTES} bytes.`)
    }
    text += decoder.decode(value, { stream: true })
  }
}

function requestUrl(raw: string, method: string, args: unknown, baseUrl?: string): string {
  // Same rules as the HTTP node: full http(s) URLs, or `./x` against the site (RunContext.baseUrl).
  const url = resolveRequestUrl(raw, baseUrl)
  // GET cannot carry a body: the arguments go into the query string instead.
  if (method === 'GET' && isRecord(args)) {
    for (const [key, value] of Object.entries(args)) url.searchParams.append(key, observationText(value))
  }
  return url.toString()
}

function httpTool(
  tool: AgentToolConfig,
  exec: NodeExecution<AgentConfig>,
  p: AgentProtection,
  index: number,
): AgentTool['run'] {
  return async (args, signal) => {
    const method = tool.method ?? 'POST'
    const field = `tools[${index}]`
    const url = requestUrl(
      exec.resolve(tool.url ?? '', `${field}.url`).trim(),
      method,
      args,
      exec.ctx.baseUrl,
    )
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.8' }
    if (method !== 'GET') headers['content-type'] = 'application/json'
    for (const [i, { key, value }] of (tool.headers ?? []).entries()) {
      if (key.trim() !== '') headers[key.trim()] = exec.resolve(value, `${field}.headers[${i}].value`)
    }
    const timeout = AbortSignal.timeout(p.toolTimeoutMs)
    const both = AbortSignal.any([signal, timeout])
    const body = method === 'GET' ? undefined : JSON.stringify(args)
    try {
      const response = await exec.ctx.fetch(url, { method, headers, body, signal: both })
      const text = await readText(response)
      if (!response.ok) {
        const detail = text.slice(0, HTTP_ERROR_BODY_MAX_CHARS)
        throw new FlowError(
          'HTTP_STATUS',
          `HTTP ${response.status} ${response.statusText}${detail ? `: ${detail}` : ''}`.trim(),
        )
      }
      return text
    } catch (error) {
      if (error instanceof FlowError) throw error
      if (timeout.aborted && !signal.aborted) {
        throw new FlowError(
          'HTTP_TIMEOUT',
          `No response from ${new URL(url).origin} within ${p.toolTimeoutMs} ms.`,
        )
      }
      if (signal.aborted || isAbortError(error)) throw error
      const message = error instanceof Error ? error.message : String(error)
      throw new FlowError('HTTP_NETWORK', `Could not reach ${new URL(url).origin} (${message}).`)
    }
  }
}

function nodeTool(tool: AgentToolConfig, exec: NodeExecution<AgentConfig>): AgentTool['run'] {
  return async (args, signal) => {
    // The target sees the arguments as the outputs of a node named `args`: {{args.city}}.
    const output = await exec.runNode(
      tool.nodeId ?? '',
      { args: isRecord(args) ? args : { value: args } },
      signal,
    )
    return observationText(output)
  }
}

/**
 * The loop tools of an Agent node: the configured ones, then each `mcp` entry's server tools
 * (connecting to the servers; one that cannot be used fails the node, naming it).
 */
export async function buildTools(
  exec: NodeExecution<AgentConfig>,
  protection: AgentProtection,
): Promise<AgentTool[]> {
  const built = exec.config.tools.flatMap((tool, index) => {
    if (tool.kind === 'mcp') return []
    const own = kindTool(exec, protection, tool, index)
    return [tool.approval === undefined ? own : { ...own, approval: tool.approval }]
  })
  const mcp = exec.config.tools.filter((tool) => tool.kind === 'mcp')
  if (mcp.length === 0) return built
  const taken = new Set(built.map((tool) => tool.spec.name))
  return [...built, ...(await buildMcpTools(exec, protection, mcp, taken))]
}

/** The loop tool of one config, by its kind. */
function kindTool(
  exec: NodeExecution<AgentConfig>,
  protection: AgentProtection,
  tool: AgentToolConfig,
  index: number,
): AgentTool {
  const spec = { name: tool.name, description: tool.description, parameters: tool.parameters }
  switch (tool.kind) {
    case 'code':
      // The sandbox and HTTP enforce their own limits; the loop's watchdog is the outer backstop.
      return {
        spec,
        timeoutMs: protection.sandboxTimeoutMs + AGENT_WATCHDOG_GRACE_MS,
        run: codeTool(tool, exec, protection),
      }
    case 'http':
      return {
        spec,
        timeoutMs: protection.toolTimeoutMs + AGENT_WATCHDOG_GRACE_MS,
        run: httpTool(tool, exec, protection, index),
      }
    default:
      return { spec, timeoutMs: protection.toolTimeoutMs, run: nodeTool(tool, exec) }
  }
}
