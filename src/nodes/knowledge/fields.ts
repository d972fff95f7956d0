/** The knowledge node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import { KNOWLEDGE_MIN_SCORE_RANGE, KNOWLEDGE_TOP_K_RANGE } from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'

export const KNOWLEDGE_FIELDS: readonly FieldSpec[] = [
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
]
