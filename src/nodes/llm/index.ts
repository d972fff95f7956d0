/** LLM node: one chat call to the node's provider, streamed into its console. */
import { defineNodeType, inheritedProtection } from '../../engine/index.ts'
import { firstLine } from '../shared.ts'
import { outputIssues, STRUCTURED_FIELDS, structuredFieldSchemas } from '../structuredOutput.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultLlmConfig, LLM_CONFIG_VERSION, llmConfigSchema, type LlmConfig } from './schema.ts'

export const llmNode: NodeDefinition<LlmConfig> = {
  type: 'llm',
  icon: '✦',
  color: '#2b6cb0',
  labelKey: 'nodes:llm.label',
  descriptionKey: 'nodes:llm.description',
  configVersion: LLM_CONFIG_VERSION,
  schema: llmConfigSchema,
  defaultConfig: defaultLlmConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.LLM_FIELDS),
  summary: (config) => firstLine(config.prompt) || firstLine(config.systemPrompt),
  palette: { group: 'models', order: 10 },
  // An empty guard switch takes Settings -> Runtime protection, as the executor resolves it.
  inherited: ({ protection }) => ({ textLoopDetection: inheritedProtection(protection).textLoopDetection }),
  uses: (config) => ({ provider: config.provider }),
  wiring: {
    mainOutput: (config) => (config.output ? 'data' : 'response'),
    fill: (config, reference) => (config.prompt.trim() === '' ? { prompt: reference } : null),
  },
  engine: defineNodeType<LlmConfig>({
    type: 'llm',
    parseConfig: zodParser(llmConfigSchema),
    outputs: (config) => [
      'response',
      'usage',
      'model',
      'finishReason',
      ...(config.output ? STRUCTURED_FIELDS : []),
    ],
    fieldSchemas: (config) => structuredFieldSchemas(config.output),
    check: (config) => [
      ...(config.prompt.trim() === '' && config.systemPrompt.trim() === ''
        ? [{ path: 'prompt', message: 'Write a prompt for the model.', key: 'nodes:issues.llmPromptMissing' }]
        : []),
      ...outputIssues(config.output),
    ],
    templates: (config) => [config.systemPrompt, config.prompt, config.model],
    // Sampling above 0 gives another reply to the same prompt: reused only when pinned or asked.
    varies: (config) => config.temperature > 0,
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeLlm)),
  }),
}
