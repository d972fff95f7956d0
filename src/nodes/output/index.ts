/** Output node: renders each value template; the rendered fields are the flow's result. */
import { DEFAULT_INPUT_PORT, defineNodeType } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultOutputConfig,
  OUTPUT_CONFIG_VERSION,
  outputConfigSchema,
  type OutputConfig,
} from './schema.ts'

export const outputNode: NodeDefinition<OutputConfig> = {
  type: 'output',
  icon: '⇤',
  color: '#b83280',
  labelKey: 'nodes:output.label',
  descriptionKey: 'nodes:output.description',
  configVersion: OUTPUT_CONFIG_VERSION,
  schema: outputConfigSchema,
  defaultConfig: defaultOutputConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.OUTPUT_FIELDS),
  summary: (config) => Object.keys(config.values).join(', '),
  palette: { group: 'outputs', order: 10 },
  role: 'flowOutput',
  wiring: {
    mainOutput: (config) => Object.keys(config.values)[0],
    fill: (config, reference) => {
      const empty = Object.keys(config.values).find((key) => config.values[key]?.trim() === '')
      return empty === undefined ? null : { values: { ...config.values, [empty]: reference } }
    },
  },
  engine: defineNodeType<OutputConfig>({
    type: 'output',
    ports: { inputs: [{ id: DEFAULT_INPUT_PORT }], outputs: [] },
    parseConfig: zodParser(outputConfigSchema),
    outputs: (config) => Object.keys(config.values),
    templates: (config) => Object.values(config.values),
    execute: async ({ config, resolve, emit }) => {
      const output: Record<string, string> = {}
      for (const [name, template] of Object.entries(config.values))
        output[name] = resolve(template, `values.${name}`)
      const entries = Object.entries(output)
      emit.chunk(
        entries.length === 1 ? (entries[0]?.[1] ?? '') : entries.map(([k, v]) => `${k}: ${v}`).join('\n'),
        'output',
      )
      return { output }
    },
  }),
}
