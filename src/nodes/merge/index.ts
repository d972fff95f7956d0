/**
 * Merge node: joins branches. The scheduler starts it when every input finished or was not
 * taken and at least one finished (`joinsBranches`); it sees only the inputs that finished, in
 * the order of its incoming edges.
 */
import { defineNodeType, valueToText, type NodeExecution, type NodeResult } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import { defaultMergeConfig, MERGE_CONFIG_VERSION, mergeConfigSchema, type MergeConfig } from './schema.ts'

type Output = Record<string, unknown>

/** `outputField` of one input's output, or the whole output without it. */
function picked(output: Output | null, field: string | undefined): unknown {
  if (field === undefined || output === null) return output
  return Object.hasOwn(output, field) ? output[field] : null
}

export async function executeMerge({
  config,
  inputs = {},
  inputOrder,
  emit,
}: NodeExecution<MergeConfig>): Promise<NodeResult> {
  // Edge order, not the record's key order (which puts integer-like ids such as "12" first).
  const order = (inputOrder ?? Object.keys(inputs)).filter((id) => Object.hasOwn(inputs, id))
  const { outputKey, outputField } = config
  if (config.mode === 'all') {
    const values = Object.create(null) as Output
    const keyed = Object.create(null) as Output
    for (const id of order) {
      const output = inputs[id] ?? null
      values[id] = output
      keyed[id] = picked(output, outputField)
    }
    emit.chunk(order.join(', '), 'output')
    return { output: outputKey === undefined ? { values } : { values, [outputKey]: keyed } }
  }
  const from = order[0] ?? null
  const value = from === null ? null : (inputs[from] ?? null)
  emit.chunk(valueToText(value), 'output')
  const output: Output = { value, from }
  if (outputKey !== undefined) output[outputKey] = picked(value, outputField)
  return { output }
}

export const mergeNode: NodeDefinition<MergeConfig> = {
  type: 'merge',
  icon: '⑃',
  color: '#2c7a7b',
  labelKey: 'nodes:merge.label',
  descriptionKey: 'nodes:merge.description',
  configVersion: MERGE_CONFIG_VERSION,
  schema: mergeConfigSchema,
  defaultConfig: defaultMergeConfig,
  fields: [
    {
      key: 'mode',
      kind: 'select',
      labelKey: 'fields:merge.mode.label',
      helpKey: 'fields:merge.mode.help',
      options: [
        { value: 'first', labelKey: 'fields:merge.mode.first' },
        { value: 'all', labelKey: 'fields:merge.mode.all' },
      ],
    },
  ],
  summary: (config) => config.mode,
  palette: { group: 'logic', order: 20 },
  wiring: { mainOutput: (config) => (config.mode === 'all' ? 'values' : 'value') },
  engine: defineNodeType<MergeConfig>({
    type: 'merge',
    parseConfig: zodParser(mergeConfigSchema),
    joinsBranches: true,
    outputs: (config) => [
      ...(config.mode === 'all' ? ['values'] : ['value', 'from']),
      ...(config.outputKey === undefined ? [] : [config.outputKey]),
    ],
    templates: () => [],
    execute: executeMerge,
  }),
}
