/** The unsupported node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const UNSUPPORTED_FIELDS: readonly FieldSpec[] = [
  {
    key: 'original',
    kind: 'json',
    language: 'json',
    labelKey: 'fields:unsupported.original.label',
    helpKey: 'fields:unsupported.original.help',
  },
]
