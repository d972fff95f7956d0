/** The subflow node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import type { FieldSpec } from '../types.ts'

export const SUBFLOW_FIELDS: readonly FieldSpec[] = [
  {
    key: 'flow',
    kind: 'flow',
    labelKey: 'fields:subflow.flow.label',
    helpKey: 'fields:subflow.flow.help',
  },
  {
    key: 'inputs',
    kind: 'flowInputs',
    labelKey: 'fields:subflow.inputs.label',
    helpKey: 'fields:subflow.inputs.help',
  },
]
