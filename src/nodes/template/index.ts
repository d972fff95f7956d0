/** Template node: renders its text with upstream values (lookup only) into `text`. */
import { defineNodeType } from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultTemplateConfig,
  TEMPLATE_CONFIG_VERSION,
  templateConfigSchema,
  type TemplateConfig,
} from './schema.ts'
import { firstLine } from '../shared.ts'

export const templateNode: NodeDefinition<TemplateConfig> = {
  type: 'template',
  icon: '¶',
  color: '#6b46c1',
  labelKey: 'nodes:template.label',
  descriptionKey: 'nodes:template.description',
  configVersion: TEMPLATE_CONFIG_VERSION,
  schema: templateConfigSchema,
  defaultConfig: defaultTemplateConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.TEMPLATE_FIELDS),
  summary: (config) => firstLine(config.template),
  palette: { group: 'inputs', order: 20 },
  wiring: {
    mainOutput: () => 'text',
    fill: (config, reference) => (config.template.trim() === '' ? { template: reference } : null),
  },
  engine: defineNodeType<TemplateConfig>({
    type: 'template',
    parseConfig: zodParser(templateConfigSchema),
    outputs: () => ['text'],
    templates: (config) => [config.template],
    execute: async ({ config, resolve }) => ({ output: { text: resolve(config.template, 'template') } }),
  }),
}
