/** Input node: the flow's entry values, overridden per run by `ctx.inputs`. */
import { DEFAULT_OUTPUT_PORT, defineNodeType, type RunContext } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import { defaultInputConfig, INPUT_CONFIG_VERSION, inputConfigSchema, type InputConfig } from './schema.ts'

/**
 * Run inputs win over the node's own values: `nodeId.key` targets this node only and beats a
 * bare `key`, which applies to every Input node that has that key. A `nodeId.key` may also add
 * a key the node does not define, since it names this node explicitly.
 */
export function applyRunInputs(
  nodeId: string,
  values: Readonly<Record<string, string>>,
  inputs: RunContext['inputs'],
): Record<string, string> {
  const out: Record<string, string> = { ...values }
  if (!inputs) return out
  for (const key of Object.keys(values)) {
    const bare = inputs[key]
    if (bare !== undefined && Object.hasOwn(inputs, key)) out[key] = bare
  }
  const prefix = `${nodeId}.`
  for (const [name, value] of Object.entries(inputs)) {
    if (name.startsWith(prefix) && name.length > prefix.length) out[name.slice(prefix.length)] = value
  }
  return out
}

export const inputNode: NodeDefinition<InputConfig> = {
  type: 'input',
  icon: '⇥',
  color: '#2f855a',
  labelKey: 'nodes:input.label',
  descriptionKey: 'nodes:input.description',
  configVersion: INPUT_CONFIG_VERSION,
  schema: inputConfigSchema,
  defaultConfig: defaultInputConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.INPUT_FIELDS),
  summary: (config) => Object.keys(config.values).join(', '),
  palette: { group: 'inputs', order: 10 },
  role: 'flowInput',
  wiring: { mainOutput: (config) => Object.keys(config.values)[0] },
  engine: defineNodeType<InputConfig>({
    type: 'input',
    ports: { inputs: [], outputs: [{ id: DEFAULT_OUTPUT_PORT }] },
    parseConfig: zodParser(inputConfigSchema),
    outputs: (config) => Object.keys(config.values),
    templates: () => [],
    execute: async ({ node, config, ctx }) => ({
      output: applyRunInputs(node.id, config.values, ctx.inputs),
    }),
  }),
}
