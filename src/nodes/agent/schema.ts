/**
 * Agent node config (docs/workflow-format.md). Protection fields are optional: an unset field
 * inherits the global runtime-protection setting, then src/defaults.ts (node > global > default).
 * Numbers outside their range are refused with a message, never clamped.
 */
import { z } from 'zod'
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

export const TOOL_KINDS = ['code', 'http', 'node'] as const
export const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
/** OpenAI and Anthropic both accept these names; '' is reported as missing by `check`. */
const TOOL_NAME = /^[A-Za-z0-9_-]{0,64}$/

/** An optional setting in `range`, refused with a message that names the range. */
function rangedSetting(range: NumberRange, integer = true) {
  const message = `Must be ${integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}.`
  const base = integer ? z.number({ error: message }).int(message) : z.number({ error: message })
  return base.min(range.min, message).max(range.max, message).nullish()
}

const keyValueSchema = z.object({ key: z.string(), value: z.string() })

const parametersSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => schema.type === undefined || schema.type === 'object', {
    message: 'The parameters schema must describe an object ("type": "object").',
  })

export const agentToolSchema = z.object({
  name: z.string().regex(TOOL_NAME, 'Tool names use letters, digits, "_" and "-" only, at most 64.'),
  description: z.string().default(''),
  /** JSON Schema of the arguments object. */
  parameters: parametersSchema.default({ type: 'object', properties: {} }),
  kind: z.enum(TOOL_KINDS),
  /** code tools: JavaScript run in the sandbox with `args` (and `inputs`) bound to the arguments. */
  code: z.string().optional(),
  /** http tools: the arguments are sent as a JSON body (query string for GET). */
  url: z.string().optional(),
  method: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(TOOL_METHODS)).optional(),
  headers: z.array(keyValueSchema).optional(),
  /** node tools: the node of this flow to run, with the arguments visible as `{{args.<name>}}`. */
  nodeId: z.string().optional(),
})

export type AgentToolConfig = z.infer<typeof agentToolSchema>

export const agentConfigSchema = z.object({
  configVersion: z.literal(AGENT_CONFIG_VERSION).default(AGENT_CONFIG_VERSION),
  /** Provider id from settings; '' means the default provider. */
  provider: z.string().default(''),
  /** '' means the provider's default model. */
  model: z.string().default(''),
  systemPrompt: z.string().default(''),
  prompt: z.string().default(''),
  tools: z
    .array(agentToolSchema)
    .default([])
    .superRefine((tools, ctx) => {
      const seen = new Set<string>()
      tools.forEach((tool, index) => {
        if (tool.name !== '' && seen.has(tool.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `Two tools are named "${tool.name}".`,
          })
        }
        seen.add(tool.name)
      })
    }),
  temperature: rangedSetting(LLM_TEMPERATURE_RANGE, false),
  maxIterations: rangedSetting(AGENT_MAX_ITERATIONS_RANGE),
  /** 0 means unlimited. */
  maxTokenBudget: rangedSetting(AGENT_TOKEN_BUDGET_RANGE),
  loopDetectionEnabled: z.boolean().nullish(),
  loopDetectionThreshold: rangedSetting(LOOP_TRIP_AT_RANGE),
  progressAware: z.boolean().nullish(),
  cycleDetection: z.boolean().nullish(),
  finalizeAfterStop: z.boolean().nullish(),
  sandboxTimeoutMs: rangedSetting(SANDBOX_TIMEOUT_RANGE_MS),
  toolTimeoutMs: rangedSetting(TOOL_TIMEOUT_RANGE_MS),
  /** Inline demo script (docs/workflow-format.md) played when the provider is `demo`. */
  demoScript: z.unknown().optional(),
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
