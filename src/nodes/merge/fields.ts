/** The merge node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const MERGE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'mode',
    kind: 'select',
    labelKey: 'fields:merge.mode.label',
    helpKey: 'fields:merge.mode.help',
    options: [
      { value: 'first', labelKey: 'fields:merge.mode.first' },
      { value: 'all', labelKey: 'fields:merge.mode.all' },
    ],
  },
]
