/** The input node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const INPUT_FIELDS: readonly FieldSpec[] = [
  {
    key: 'values',
    kind: 'record',
    labelKey: 'fields:input.values.label',
    helpKey: 'fields:input.values.help',
  },
]
