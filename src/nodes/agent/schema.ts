/**
 * Agent node config (docs/workflow-format.md). Protection fields are optional: an unset field
 * inherits the global runtime-protection setting, then src/defaults.ts (node > global > default).
 * Numbers outside their range are refused with a message, never clamped.
 */
import { z } from '../../zodMini.ts'
import { issueKey } from '../../issueText.ts'
import { outputSpecSchema } from '../structuredOutput.ts'
import {
  AGENT_MAX_ITERATIONS_RANGE,
  AGENT_TOKEN_BUDGET_RANGE,
  LLM_TEMPERATURE_RANGE,
  LOOP_TRIP_AT_RANGE,
  SANDBOX_TIMEOUT_RANGE_MS,
  TOOL_TIMEOUT_RANGE_MS,
  type NumberRange,
} from '../../defaults.ts'

export const AGENT_CONFIG_VERSION = 1

export const TOOL_KINDS = ['code', 'http', 'node', 'mcp'] as const
/**
 * A tool's approval (flow-control.md, "MCP tools and approval"): `ask` pauses each call until a
 * person (or the CLI's `--approve`) decides; `never` runs it without asking. Absent: the kind's
 * default (`never`; an MCP tool marked `destructiveHint` asks).
 */
export const TOOL_APPROVALS = ['ask', 'never'] as const
export const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
/** OpenAI and Anthropic both accept these names; '' is reported as missing by `check`. */
const TOOL_NAME = /^[A-Za-z0-9_-]{0,64}$/

/** An optional setting in `range`, refused with a message that names the range. */
function rangedSetting(range: NumberRange, integer = true) {
  const message = `Must be ${integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}.`
  const base = z.number({ error: message })
  const bounds = [z.gte(range.min, message), z.lte(range.max, message)]
  return z.nullish(integer ? base.check(z.int(message), ...bounds) : base.check(...bounds))
}

const keyValueSchema = z.object({ key: z.string(), value: z.string() })

const parametersSchema = z.record(z.string(), z.unknown()).check(
  z.refine((schema) => schema.type === undefined || schema.type === 'object', {
    message: 'The parameters schema must describe an object ("type": "object").',
    params: issueKey('nodes:issues.parametersNotObject'),
  }),
)

export const agentToolSchema = z.object({
  /** Unused by `mcp` entries: their tools keep the server's names. */
  name: z._default(
    z.string().check(z.regex(TOOL_NAME, 'Tool names use letters, digits, "_" and "-" only, at most 64.')),
    '',
  ),
  description: z._default(z.string(), ''),
  /** JSON Schema of the arguments object. */
  parameters: z._default(parametersSchema, { type: 'object', properties: {} }),
  kind: z.enum(TOOL_KINDS),
  approval: z.optional(z.enum(TOOL_APPROVALS)),
  /** code tools: JavaScript run in the sandbox with `args` (and `inputs`) bound to the arguments. */
  code: z.optional(z.string()),
  /** http tools: the arguments are sent as a JSON body (query string for GET). */
  url: z.optional(z.string()),
  method: z.optional(
    z.pipe(
      z.transform((v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v)),
      z.enum(TOOL_METHODS),
    ),
  ),
  headers: z.optional(z.array(keyValueSchema)),
  /** node tools: the node of this flow to run, with the arguments visible as `{{args.<name>}}`. */
  nodeId: z.optional(z.string()),
  /** mcp tools: the MCP server's id (settings, or the CLI's --mcp) and which of its tools (all when absent). */
  server: z.optional(z.string()),
  include: z.optional(z.array(z.string())),
})

export type AgentToolConfig = z.infer<typeof agentToolSchema>

export const agentConfigSchema = z.object({
  configVersion: z._default(z.literal(AGENT_CONFIG_VERSION), AGENT_CONFIG_VERSION),
  /** Provider id from settings; '' means the default provider. */
  provider: z._default(z.string(), ''),
  /** '' means the provider's default model. */
  model: z._default(z.string(), ''),
  systemPrompt: z._default(z.string(), ''),
  prompt: z._default(z.string(), ''),
  tools: z._default(z.array(agentToolSchema), []).check(
    z.superRefine((tools, ctx) => {
      const seen = new Set<string>()
      tools.forEach((tool, index) => {
        if (tool.name !== '' && seen.has(tool.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `Two tools are named "${tool.name}".`,
            params: issueKey('nodes:issues.toolNameTaken', { tool: tool.name }),
          })
        }
        seen.add(tool.name)
      })
    }),
  ),
  temperature: rangedSetting(LLM_TEMPERATURE_RANGE, false),
  maxIterations: rangedSetting(AGENT_MAX_ITERATIONS_RANGE),
  /** 0 means unlimited. */
  maxTokenBudget: rangedSetting(AGENT_TOKEN_BUDGET_RANGE),
  loopDetectionEnabled: z.nullish(z.boolean()),
  loopDetectionThreshold: rangedSetting(LOOP_TRIP_AT_RANGE),
  progressAware: z.nullish(z.boolean()),
  cycleDetection: z.nullish(z.boolean()),
  textLoopDetection: z.nullish(z.boolean()),
  finalizeAfterStop: z.nullish(z.boolean()),
  sandboxTimeoutMs: rangedSetting(SANDBOX_TIMEOUT_RANGE_MS),
  toolTimeoutMs: rangedSetting(TOOL_TIMEOUT_RANGE_MS),
  /** Inline demo script (docs/workflow-format.md) played when the provider is `demo`. */
  demoScript: z.optional(z.unknown()),
  /** Structured output: the final answer must be JSON fitting this schema. */
  output: z.optional(outputSpecSchema),
})

export type AgentConfig = z.infer<typeof agentConfigSchema>

export const DEFAULT_AGENT_SYSTEM_PROMPT =
  'You are a careful assistant. Use the tools when they help, then answer the question directly.'

/** A new Agent node: every protection setting inherits the global one. */
export function defaultAgentConfig(): AgentConfig {
  return {
    configVersion: AGENT_CONFIG_VERSION,
    provider: '',
    model: '',
    systemPrompt: DEFAULT_AGENT_SYSTEM_PROMPT,
    prompt: '',
    tools: [],
  }
}
