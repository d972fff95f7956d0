/** The code node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import { SANDBOX_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'

export const CODE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'code',
    kind: 'code',
    language: 'javascript',
    labelKey: 'fields:code.code.label',
    helpKey: 'fields:code.code.help',
  },
  {
    key: 'timeoutMs',
    kind: 'number',
    range: SANDBOX_TIMEOUT_RANGE_MS,
    unit: 'ms',
    optional: true,
    labelKey: 'fields:code.timeoutMs.label',
    helpKey: 'fields:code.timeoutMs.help',
  },
]
