/** LLM node config (docs/workflow-format.md). Numbers and ranges come from src/defaults.ts. */
import { z } from '../../zodMini.ts'
import {
  LLM_MAX_TOKENS,
  LLM_MAX_TOKENS_RANGE,
  LLM_TEMPERATURE,
  LLM_TEMPERATURE_RANGE,
} from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'
import { outputSpecSchema } from '../structuredOutput.ts'

export const LLM_CONFIG_VERSION = 1

export const llmConfigSchema = z.object({
  configVersion: z._default(z.literal(LLM_CONFIG_VERSION), LLM_CONFIG_VERSION),
  /** Provider id from settings; '' means the default provider. */
  provider: z._default(z.string(), ''),
  /** '' means the provider's default model. */
  model: z._default(z.string(), ''),
  systemPrompt: z._default(z.string(), ''),
  prompt: z._default(z.string(), ''),
  temperature: z._default(rangedNumber(LLM_TEMPERATURE_RANGE, false), LLM_TEMPERATURE),
  maxTokens: z._default(rangedNumber(LLM_MAX_TOKENS_RANGE), LLM_MAX_TOKENS),
  stream: z._default(z.boolean(), true),
  /** Stop a reply that degenerates into repeating itself; empty inherits Settings (docs/guard.md). */
  textLoopDetection: z.nullish(z.boolean()),
  /** Structured output: the reply must be JSON fitting this schema (absent: plain text). */
  output: z.optional(outputSpecSchema),
  /** Inline demo script (docs/workflow-format.md) played when the provider is `demo`. */
  demoScript: z.optional(z.unknown()),
})

export type LlmConfig = z.infer<typeof llmConfigSchema>

export function defaultLlmConfig(): LlmConfig {
  return {
    configVersion: LLM_CONFIG_VERSION,
    provider: '',
    model: '',
    systemPrompt: '',
    prompt: '',
    temperature: LLM_TEMPERATURE,
    maxTokens: LLM_MAX_TOKENS,
    stream: true,
  }
}
