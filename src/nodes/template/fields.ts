/** The template node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const TEMPLATE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'template',
    kind: 'textarea',
    language: 'plaintext',
    labelKey: 'fields:template.template.label',
    helpKey: 'fields:template.template.help',
  },
]
