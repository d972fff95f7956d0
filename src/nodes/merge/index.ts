/**
 * Merge node: joins branches. The scheduler starts it when every input finished or was not
 * taken and at least one finished (`joinsBranches`); it sees only the inputs that finished, in
 * the order of its incoming edges.
 */
import { defineNodeType, valueToText, type NodeExecution, type NodeResult } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import { defaultMergeConfig, MERGE_CONFIG_VERSION, mergeConfigSchema, type MergeConfig } from './schema.ts'

export async function executeMerge({
  config,
  inputs,
  emit,
}: NodeExecution<MergeConfig>): Promise<NodeResult> {
  const finished = Object.entries(inputs ?? {})
  if (config.mode === 'all') {
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    for (const [id, output] of finished) values[id] = output
    emit.chunk(finished.map(([id]) => id).join(', '), 'output')
    return { output: { values } }
  }
  const [from, value] = finished[0] ?? [null, null]
  emit.chunk(valueToText(value), 'output')
  return { output: { value, from } }
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
    outputs: (config) => (config.mode === 'all' ? ['values'] : ['value', 'from']),
    templates: () => [],
    execute: executeMerge,
  }),
}
