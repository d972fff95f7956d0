/** Unsupported placeholder: opens, shows in preflight, is kept on export, and never runs. */
import { defineNodeType, FlowError, UNSUPPORTED_TYPE } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultUnsupportedConfig,
  UNSUPPORTED_CONFIG_VERSION,
  unsupportedConfigSchema,
  type UnsupportedConfig,
} from './schema.ts'

export const unsupportedNode: NodeDefinition<UnsupportedConfig> = {
  type: UNSUPPORTED_TYPE,
  icon: '?',
  color: '#718096',
  labelKey: 'nodes:unsupported.label',
  descriptionKey: 'nodes:unsupported.description',
  configVersion: UNSUPPORTED_CONFIG_VERSION,
  schema: unsupportedConfigSchema,
  defaultConfig: defaultUnsupportedConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.UNSUPPORTED_FIELDS),
  summary: (config) => config.originalType,
  role: 'placeholder',
  engine: defineNodeType<UnsupportedConfig>({
    type: UNSUPPORTED_TYPE,
    executable: false,
    // The default ports stay, so the imported wires still have somewhere to attach.
    parseConfig: zodParser(unsupportedConfigSchema),
    outputs: () => undefined,
    templates: () => [],
    execute: async ({ node, config }) => {
      throw new FlowError('UNSUPPORTED_NODE', `Wardflow cannot run "${config.originalType}" nodes.`, {
        nodeId: node.id,
      })
    },
  }),
}
