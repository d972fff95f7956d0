/** The loop node's inspector fields, loaded with the inspector (NodeDefinition.fields). */
import { LOOP_CONCURRENCY_RANGE, LOOP_MAX_ITERATIONS_RANGE } from '../../defaults.ts'
import type { FieldSpec } from '../types.ts'

// Which fields apply to which mode (flow-control.md "loop"): a forEach loop has a list and a
// concurrency, a while loop a condition and a cap. The other mode's fields are not drawn (a
// while loop's condition opens Monaco, which selecting a forEach loop must not load).
const forEach = (config: Readonly<Record<string, unknown>>): boolean => config.mode !== 'while'
const whileMode = (config: Readonly<Record<string, unknown>>): boolean => config.mode === 'while'

const key = (field: string, part: string) => `fields:loop.${field}.${part}`

export const LOOP_FIELDS: readonly FieldSpec[] = [
  {
    key: 'mode',
    kind: 'select',
    labelKey: key('mode', 'label'),
    helpKey: key('mode', 'help'),
    options: [
      { value: 'forEach', labelKey: key('mode', 'forEach') },
      { value: 'while', labelKey: key('mode', 'while') },
    ],
  },
  {
    key: 'items',
    shownWhen: forEach,
    kind: 'text',
    labelKey: key('items', 'label'),
    helpKey: key('items', 'help'),
  },
  {
    key: 'concurrency',
    shownWhen: forEach,
    kind: 'number',
    range: LOOP_CONCURRENCY_RANGE,
    labelKey: key('concurrency', 'label'),
    helpKey: key('concurrency', 'help'),
  },
  {
    key: 'until',
    shownWhen: whileMode,
    kind: 'json',
    language: 'json',
    labelKey: key('until', 'label'),
    helpKey: key('until', 'help'),
  },
  {
    key: 'maxIterations',
    shownWhen: whileMode,
    kind: 'number',
    range: LOOP_MAX_ITERATIONS_RANGE,
    labelKey: key('maxIterations', 'label'),
    helpKey: key('maxIterations', 'help'),
  },
  {
    key: 'resultNode',
    kind: 'text',
    labelKey: key('resultNode', 'label'),
    helpKey: key('resultNode', 'help'),
  },
  {
    key: 'onItemError',
    kind: 'select',
    labelKey: key('onItemError', 'label'),
    helpKey: key('onItemError', 'help'),
    options: [
      { value: 'fail', labelKey: key('onItemError', 'fail') },
      { value: 'continue', labelKey: key('onItemError', 'continue') },
    ],
  },
]
