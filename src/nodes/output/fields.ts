/** The output node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const OUTPUT_FIELDS: readonly FieldSpec[] = [
  {
    key: 'values',
    kind: 'record',
    labelKey: 'fields:output.values.label',
    helpKey: 'fields:output.values.help',
  },
]
