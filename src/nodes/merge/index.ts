/**
 * Merge node: joins branches. The scheduler starts it when every input finished or was not
 * taken and at least one finished (`joinsBranches`); it sees only the inputs that finished, in
 * the order of its incoming edges.
 */
import { defineNodeType } from '../../engine/index.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultMergeConfig, MERGE_CONFIG_VERSION, mergeConfigSchema, type MergeConfig } from './schema.ts'

export const mergeNode: NodeDefinition<MergeConfig> = {
  type: 'merge',
  icon: '⑃',
  color: '#2c7a7b',
  labelKey: 'nodes:merge.label',
  descriptionKey: 'nodes:merge.description',
  configVersion: MERGE_CONFIG_VERSION,
  schema: mergeConfigSchema,
  defaultConfig: defaultMergeConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.MERGE_FIELDS),
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
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeMerge)),
  }),
}
