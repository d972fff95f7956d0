/** The llm node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import { LLM_MAX_TOKENS_RANGE, LLM_TEMPERATURE_RANGE } from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'

const key = (name: string, part: 'label' | 'help'): string => `fields:llm.${name}.${part}`

export const LLM_FIELDS: readonly FieldSpec[] = [
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
]
