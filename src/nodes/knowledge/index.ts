/**
 * Knowledge node: searches a knowledge base (documents kept in the browser, or given to the CLI
 * with `--knowledge`) and returns the best chunks with their sources, as a list (`results`) and
 * as one citation block a prompt can quote (`result`). The search itself is the host's, through
 * the engine's knowledge port.
 */
import { defineNodeType } from '../../engine/index.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultKnowledgeConfig,
  KNOWLEDGE_CONFIG_VERSION,
  knowledgeConfigSchema,
  type KnowledgeConfig,
} from './schema.ts'

export const knowledgeNode: NodeDefinition<KnowledgeConfig> = {
  type: 'knowledge',
  icon: '📚',
  color: '#b7791f',
  labelKey: 'nodes:knowledge.label',
  descriptionKey: 'nodes:knowledge.description',
  configVersion: KNOWLEDGE_CONFIG_VERSION,
  schema: knowledgeConfigSchema,
  defaultConfig: defaultKnowledgeConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.KNOWLEDGE_FIELDS),
  summary: (config) => config.base,
  palette: { group: 'inputs', order: 30 },
  wiring: {
    mainOutput: () => 'result',
    fill: (config, reference) => (config.query.trim() === '' ? { query: reference } : null),
  },
  engine: defineNodeType<KnowledgeConfig>({
    type: 'knowledge',
    parseConfig: zodParser(knowledgeConfigSchema),
    outputs: () => ['results', 'result'],
    check: (config) => [
      ...(config.base.trim() === ''
        ? [
            {
              path: 'base',
              message: 'Name the knowledge base to search.',
              key: 'nodes:issues.knowledgeBaseEmpty',
            },
          ]
        : []),
      ...(config.query.trim() === ''
        ? [
            {
              path: 'query',
              message: 'Write the query to search for.',
              key: 'nodes:issues.knowledgeQueryEmpty',
            },
          ]
        : []),
    ],
    templates: (config) => [config.query],
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeKnowledge)),
  }),
}
