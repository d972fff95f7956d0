/** The http node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import { HTTP_RETRIES_RANGE, HTTP_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'
import { HTTP_METHODS } from './schema.ts'

const key = (name: string, part: 'label' | 'help'): string => `fields:http.${name}.${part}`

export const HTTP_FIELDS: readonly FieldSpec[] = [
  {
    key: 'method',
    kind: 'select',
    options: HTTP_METHODS.map((m) => ({ value: m, labelKey: `nodes:http.methods.${m}` })),
    labelKey: key('method', 'label'),
    helpKey: key('method', 'help'),
  },
  { key: 'url', kind: 'text', labelKey: key('url', 'label'), helpKey: key('url', 'help') },
  { key: 'query', kind: 'keyValues', labelKey: key('query', 'label'), helpKey: key('query', 'help') },
  { key: 'headers', kind: 'keyValues', labelKey: key('headers', 'label'), helpKey: key('headers', 'help') },
  {
    key: 'body',
    kind: 'textarea',
    language: 'json',
    labelKey: key('body', 'label'),
    helpKey: key('body', 'help'),
  },
  {
    key: 'timeoutMs',
    kind: 'number',
    range: HTTP_TIMEOUT_RANGE_MS,
    unit: 'ms',
    labelKey: key('timeoutMs', 'label'),
    helpKey: key('timeoutMs', 'help'),
  },
  {
    key: 'retries',
    kind: 'number',
    range: HTTP_RETRIES_RANGE,
    labelKey: key('retries', 'label'),
    helpKey: key('retries', 'help'),
  },
]
