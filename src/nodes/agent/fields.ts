/** The Agent node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import {
  AGENT_MAX_ITERATIONS_RANGE,
  AGENT_TOKEN_BUDGET_RANGE,
  LLM_TEMPERATURE_RANGE,
  LOOP_TRIP_AT_RANGE,
  SANDBOX_TIMEOUT_RANGE_MS,
  TOOL_TIMEOUT_RANGE_MS,
} from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'

const label = (name: string): string => `agent:fields.${name}.label`
const help = (name: string): string => `agent:fields.${name}.help`
const field = (key: string, spec: Omit<FieldSpec, 'key' | 'labelKey' | 'helpKey'>): FieldSpec => ({
  key,
  labelKey: label(key),
  helpKey: help(key),
  ...spec,
})
const protection = { group: 'protection', optional: true } as const

export const AGENT_FIELDS: readonly FieldSpec[] = [
  field('provider', { kind: 'provider', optional: true }),
  field('model', { kind: 'model', optional: true }),
  field('systemPrompt', { kind: 'textarea', language: 'plaintext' }),
  field('prompt', { kind: 'textarea', language: 'plaintext' }),
  field('tools', { kind: 'tools' }),
  field('output', { kind: 'outputSchema', optional: true }),
  field('temperature', { kind: 'number', range: LLM_TEMPERATURE_RANGE, optional: true }),
  field('maxIterations', { kind: 'number', range: AGENT_MAX_ITERATIONS_RANGE, ...protection }),
  field('maxTokenBudget', {
    kind: 'number',
    range: AGENT_TOKEN_BUDGET_RANGE,
    unit: 'tokens',
    zeroMeansUnlimited: true,
    ...protection,
  }),
  field('loopDetectionEnabled', { kind: 'boolean', ...protection }),
  field('loopDetectionThreshold', { kind: 'number', range: LOOP_TRIP_AT_RANGE, ...protection }),
  field('progressAware', { kind: 'boolean', ...protection }),
  field('cycleDetection', { kind: 'boolean', ...protection }),
  field('textLoopDetection', { kind: 'boolean', ...protection }),
  field('finalizeAfterStop', { kind: 'boolean', ...protection }),
  field('sandboxTimeoutMs', { kind: 'number', range: SANDBOX_TIMEOUT_RANGE_MS, unit: 'ms', ...protection }),
  field('toolTimeoutMs', { kind: 'number', range: TOOL_TIMEOUT_RANGE_MS, unit: 'ms', ...protection }),
  field('demoScript', { kind: 'json', language: 'json', optional: true }),
]
