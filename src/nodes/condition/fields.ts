/** The condition node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const CONDITION_FIELDS: readonly FieldSpec[] = [
  {
    key: 'cases',
    kind: 'cases',
    labelKey: 'fields:condition.cases.label',
    helpKey: 'fields:condition.cases.help',
  },
]
