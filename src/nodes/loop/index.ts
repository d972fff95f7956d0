/**
 * Loop node: a container whose body (the nodes with `parentId` naming it) runs once per item
 * (`forEach`) or until a condition holds (`while`). See run.ts and engine/loopBody.ts.
 */
import { defineNodeType } from '../../engine/index.ts'
import { LOOP_DEFAULT_HEIGHT_PX, LOOP_DEFAULT_WIDTH_PX } from '../../defaults.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultLoopConfig, LOOP_CONFIG_VERSION, loopConfigSchema, type LoopConfig } from './schema.ts'

export const loopNode: NodeDefinition<LoopConfig> = {
  type: 'loop',
  icon: '↻',
  color: '#6b46c1',
  labelKey: 'nodes:loop.label',
  descriptionKey: 'nodes:loop.description',
  configVersion: LOOP_CONFIG_VERSION,
  schema: loopConfigSchema,
  defaultConfig: defaultLoopConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.LOOP_FIELDS),
  summary: (config) =>
    config.mode === 'forEach' ? `forEach ${config.items}` : `while ≤ ${config.maxIterations}`,
  palette: { group: 'logic', order: 30 },
  // A box the body's nodes are dropped into (store/loopNesting.ts).
  defaultSize: { width: LOOP_DEFAULT_WIDTH_PX, height: LOOP_DEFAULT_HEIGHT_PX },
  wiring: { mainOutput: () => 'results' },
  engine: defineNodeType<LoopConfig>({
    type: 'loop',
    container: true,
    parseConfig: zodParser(loopConfigSchema),
    outputs: (config) =>
      config.mode === 'while' ? ['results', 'count', 'stopReason'] : ['results', 'count', 'stopReason'],
    templates: (config) =>
      config.mode === 'forEach' ? [config.items] : config.until.rules.flatMap((r) => [r.value, r.to]),
    // The iteration runner loads on the first run of a loop, not with the editor.
    execute: lazyExecutor(() => import('./run.ts').then((m) => m.executeLoop)),
  }),
}
