/** LLM node config (docs/workflow-format.md). Numbers and ranges come from src/defaults.ts. */
import { z } from 'zod'
import {
  LLM_MAX_TOKENS,
  LLM_MAX_TOKENS_RANGE,
  LLM_TEMPERATURE,
  LLM_TEMPERATURE_RANGE,
} from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'

export const LLM_CONFIG_VERSION = 1

export const llmConfigSchema = z.object({
  configVersion: z.literal(LLM_CONFIG_VERSION).default(LLM_CONFIG_VERSION),
  /** Provider id from settings; '' means the default provider. */
  provider: z.string().default(''),
  /** '' means the provider's default model. */
  model: z.string().default(''),
  systemPrompt: z.string().default(''),
  prompt: z.string().default(''),
  temperature: rangedNumber(LLM_TEMPERATURE_RANGE, false).default(LLM_TEMPERATURE),
  maxTokens: rangedNumber(LLM_MAX_TOKENS_RANGE).default(LLM_MAX_TOKENS),
  stream: z.boolean().default(true),
  /** Inline demo script (docs/workflow-format.md) played when the provider is `demo`. */
  demoScript: z.unknown().optional(),
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
