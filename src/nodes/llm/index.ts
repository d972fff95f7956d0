/** LLM node: one chat call to the node's provider, streamed into its console. */
import { defineNodeType, inheritedProtection } from '../../engine/index.ts'
import { LLM_MAX_TOKENS_RANGE, LLM_TEMPERATURE_RANGE } from '../../defaults.ts'
import { firstLine } from '../shared.ts'
import { outputIssues, STRUCTURED_FIELDS, structuredFieldSchemas } from '../structuredOutput.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultLlmConfig, LLM_CONFIG_VERSION, llmConfigSchema, type LlmConfig } from './schema.ts'

const key = (name: string, part: 'label' | 'help'): string => `fields:llm.${name}.${part}`

export const llmNode: NodeDefinition<LlmConfig> = {
  type: 'llm',
  icon: '✦',
  color: '#2b6cb0',
  labelKey: 'nodes:llm.label',
  descriptionKey: 'nodes:llm.description',
  configVersion: LLM_CONFIG_VERSION,
  schema: llmConfigSchema,
  defaultConfig: defaultLlmConfig,
  fields: [
    {
      key: 'provider',
      kind: 'provider',
      labelKey: key('provider', 'label'),
      helpKey: key('provider', 'help'),
      optional: true,
    },
    {
      key: 'model',
      kind: 'model',
      labelKey: key('model', 'label'),
      helpKey: key('model', 'help'),
      optional: true,
    },
    {
      key: 'systemPrompt',
      kind: 'textarea',
      language: 'plaintext',
      labelKey: key('systemPrompt', 'label'),
      helpKey: key('systemPrompt', 'help'),
    },
    {
      key: 'prompt',
      kind: 'textarea',
      language: 'plaintext',
      labelKey: key('prompt', 'label'),
      helpKey: key('prompt', 'help'),
    },
    {
      key: 'temperature',
      kind: 'number',
      range: LLM_TEMPERATURE_RANGE,
      labelKey: key('temperature', 'label'),
      helpKey: key('temperature', 'help'),
    },
    {
      key: 'maxTokens',
      kind: 'number',
      range: LLM_MAX_TOKENS_RANGE,
      unit: 'tokens',
      labelKey: key('maxTokens', 'label'),
      helpKey: key('maxTokens', 'help'),
    },
    { key: 'stream', kind: 'boolean', labelKey: key('stream', 'label'), helpKey: key('stream', 'help') },
    {
      key: 'output',
      kind: 'outputSchema',
      labelKey: 'fields:structured.label',
      helpKey: 'fields:structured.help',
      optional: true,
    },
    {
      key: 'textLoopDetection',
      kind: 'boolean',
      group: 'protection',
      optional: true,
      labelKey: key('textLoopDetection', 'label'),
      helpKey: key('textLoopDetection', 'help'),
    },
  ],
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
