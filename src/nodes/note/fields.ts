/** The note node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const NOTE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'text',
    kind: 'textarea',
    language: 'markdown',
    labelKey: 'fields:note.text.label',
    helpKey: 'fields:note.text.help',
  },
]
