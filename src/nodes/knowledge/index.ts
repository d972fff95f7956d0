/**
 * Knowledge node: searches a knowledge base (documents kept in the browser, or given to the CLI
 * with `--knowledge`) and returns the best chunks with their sources, as a list (`results`) and
 * as one citation block a prompt can quote (`result`). The search itself is the host's, through
 * the engine's knowledge port.
 */
import { KNOWLEDGE_MIN_SCORE_RANGE, KNOWLEDGE_TOP_K_RANGE } from '../../defaults.ts'
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
  fields: [
    {
      key: 'base',
      kind: 'text',
      labelKey: 'fields:knowledge.base.label',
      helpKey: 'fields:knowledge.base.help',
    },
    {
      key: 'query',
      kind: 'textarea',
      labelKey: 'fields:knowledge.query.label',
      helpKey: 'fields:knowledge.query.help',
    },
    {
      key: 'topK',
      kind: 'number',
      labelKey: 'fields:knowledge.topK.label',
      helpKey: 'fields:knowledge.topK.help',
      range: KNOWLEDGE_TOP_K_RANGE,
    },
    {
      key: 'minScore',
      kind: 'number',
      labelKey: 'fields:knowledge.minScore.label',
      helpKey: 'fields:knowledge.minScore.help',
      range: KNOWLEDGE_MIN_SCORE_RANGE,
    },
  ],
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
