/**
 * Loop node: a container whose body (the nodes with `parentId` naming it) runs once per item
 * (`forEach`) or until a condition holds (`while`). See run.ts and engine/loopBody.ts.
 */
import { defineNodeType } from '../../engine/index.ts'
import {
  LOOP_CONCURRENCY_RANGE,
  LOOP_DEFAULT_HEIGHT_PX,
  LOOP_DEFAULT_WIDTH_PX,
  LOOP_MAX_ITERATIONS_RANGE,
} from '../../defaults.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultLoopConfig, LOOP_CONFIG_VERSION, loopConfigSchema, type LoopConfig } from './schema.ts'

const key = (field: string, part: string) => `fields:loop.${field}.${part}`

export const loopNode: NodeDefinition<LoopConfig> = {
  type: 'loop',
  icon: '↻',
  color: '#6b46c1',
  labelKey: 'nodes:loop.label',
  descriptionKey: 'nodes:loop.description',
  configVersion: LOOP_CONFIG_VERSION,
  schema: loopConfigSchema,
  defaultConfig: defaultLoopConfig,
  fields: [
    {
      key: 'mode',
      kind: 'select',
      labelKey: key('mode', 'label'),
      helpKey: key('mode', 'help'),
      options: [
        { value: 'forEach', labelKey: key('mode', 'forEach') },
        { value: 'while', labelKey: key('mode', 'while') },
      ],
    },
    { key: 'items', kind: 'text', labelKey: key('items', 'label'), helpKey: key('items', 'help') },
    {
      key: 'concurrency',
      kind: 'number',
      range: LOOP_CONCURRENCY_RANGE,
      labelKey: key('concurrency', 'label'),
      helpKey: key('concurrency', 'help'),
    },
    {
      key: 'until',
      kind: 'json',
      language: 'json',
      labelKey: key('until', 'label'),
      helpKey: key('until', 'help'),
    },
    {
      key: 'maxIterations',
      kind: 'number',
      range: LOOP_MAX_ITERATIONS_RANGE,
      labelKey: key('maxIterations', 'label'),
      helpKey: key('maxIterations', 'help'),
    },
    {
      key: 'resultNode',
      kind: 'text',
      labelKey: key('resultNode', 'label'),
      helpKey: key('resultNode', 'help'),
    },
    {
      key: 'onItemError',
      kind: 'select',
      labelKey: key('onItemError', 'label'),
      helpKey: key('onItemError', 'help'),
      options: [
        { value: 'fail', labelKey: key('onItemError', 'fail') },
        { value: 'continue', labelKey: key('onItemError', 'continue') },
      ],
    },
  ],
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
