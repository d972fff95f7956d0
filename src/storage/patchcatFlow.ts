/**
 * PatchCat control-flow nodes -> Wardflow `condition`, `merge`, `loop` and `subflow` configs
 * (flow-control.md, "PatchCat mapping"; workflow-format.md, "Importing PatchCat workflows").
 * What cannot be carried over with its meaning intact makes the node a placeholder, with a note
 * that has a catalogue key (the import report words it in the UI's language).
 */
import { LOOP_CONCURRENCY_RANGE, NODE_ID_PATTERN, type NumberRange } from '../defaults.ts'
import { isValidFieldKey } from '../engine/index.ts'
import { PatchCatData, type PlaceholderReason } from './patchcatNodes.ts'
import { isPlainObject, type NoteLog } from './restore/index.ts'

/** Wardflow's `condition` handle taken when no case holds. */
export const ELSE_HANDLE = 'else'

/** Notes of one import: each note's English text beside its catalogue key. */
export interface ImportNotes {
  notes: NoteLog
}

export function keyedNote(
  into: ImportNotes,
  text: string,
  key: string,
  params: Record<string, string | number>,
): void {
  into.notes.add(text, `issues:importNote.patchcat.${key}`, params)
}

/** A PatchCat source handle -> the Wardflow handles its edges leave from (one edge each). */
export type HandleMap = ReadonlyMap<string, readonly string[]>

export type FlowMapped =
  | { config: Record<string, unknown>; handles?: HandleMap }
  | { reason: PlaceholderReason }
  | { unsupported: string; key?: string; params?: Record<string, string | number> }

/** PatchCat operator -> contract op. PatchCat compares text case-insensitively (regex flag `i`). */
const OPS: Readonly<Record<string, { op: string; ignoreCase?: true }>> = {
  equals: { op: 'equals', ignoreCase: true },
  not_equals: { op: 'notEquals', ignoreCase: true },
  contains: { op: 'contains', ignoreCase: true },
  not_contains: { op: 'notContains', ignoreCase: true },
  starts_with: { op: 'startsWith', ignoreCase: true },
  ends_with: { op: 'endsWith', ignoreCase: true },
  regex_match: { op: 'matches', ignoreCase: true },
  greater_than: { op: 'gt' },
  greater_than_or_equal: { op: 'gte' },
  greater_or_equal: { op: 'gte' },
  less_than: { op: 'lt' },
  less_than_or_equal: { op: 'lte' },
  less_or_equal: { op: 'lte' },
  is_empty: { op: 'isEmpty' },
  is_not_empty: { op: 'isNotEmpty' },
}
const NO_OPERAND = new Set(['isEmpty', 'isNotEmpty'])

function text(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : JSON.stringify(value)
}

/**
 * A PatchCat variable as a Wardflow template. PatchCat reads a bare name from the node's own
 * `inputs` first (whose value is a template), else writes a path without braces
 * (`input_ticket.category`); an empty one means the node's first input.
 */
function variableTemplate(
  raw: unknown,
  inputs: Record<string, unknown>,
  used: Set<string>,
): string | undefined {
  const name = typeof raw === 'string' ? raw.trim() : ''
  if (name === '') {
    const first = Object.keys(inputs)[0]
    if (first === undefined) return undefined
    used.add(first)
    return text(inputs[first])
  }
  if (name.startsWith('{{') && name.endsWith('}}')) return name
  if (Object.hasOwn(inputs, name)) {
    used.add(name)
    return text(inputs[name])
  }
  return `{{${name}}}`
}

interface RawCase {
  id: unknown
  label: unknown
  rules: unknown[]
  logic: unknown
}

type Rule = { value: string; op: string; to?: string; ignoreCase?: true }

type Unmapped = Extract<FlowMapped, { unsupported: string }>

function mapRule(
  raw: unknown,
  at: { case: number; rule: number },
  inputs: Record<string, unknown>,
  used: Set<string>,
): Rule | Unmapped {
  const where = `case ${at.case}, rule ${at.rule}`
  if (!isPlainObject(raw))
    return { unsupported: `${where} is not an object`, key: 'ruleNotObject', params: at }
  const operator = typeof raw.operator === 'string' ? raw.operator : 'equals'
  const mapped = OPS[operator]
  if (mapped === undefined)
    return {
      unsupported: `${where} uses the operator ${JSON.stringify(raw.operator)}, which Wardflow conditions do not have`,
      key: 'unknownOperator',
      params: { ...at, operator: text(raw.operator) },
    }
  const value = variableTemplate(raw.variable, inputs, used)
  if (value === undefined)
    return {
      unsupported: `${where} names no variable and the node has no inputs to read`,
      key: 'ruleNoVariable',
      params: at,
    }
  const rule: Rule = { value, op: mapped.op }
  if (!NO_OPERAND.has(mapped.op)) rule.to = text(raw.value)
  if (mapped.ignoreCase) rule.ignoreCase = true
  return rule
}

/** A case id Wardflow accepts as a handle: 1-64 of [A-Za-z0-9_-], unique, never `else`. */
function caseId(raw: unknown, index: number, taken: Set<string>): string {
  const wanted = typeof raw === 'string' ? raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) : ''
  let id = NODE_ID_PATTERN.test(wanted) && wanted !== ELSE_HANDLE ? wanted : `case_${index + 1}`
  while (taken.has(id)) id = `${id.slice(0, 56)}_${index + 1}`
  taken.add(id)
  return id
}

/**
 * PatchCat `condition` -> `condition`. Two PatchCat shapes: `config.cases[]` (each with
 * `conditions[]` and `logicalOperator`, edges from case ids and `default`), and the editor's
 * `config.conditions[]` (one rule per branch, its `targetHandle`, `defaultBranch`).
 */
export function mapCondition(d: PatchCatData, into: ImportNotes): FlowMapped {
  const mode = d.take('mode', ['config'])
  if (mode === 'expression') {
    d.take('expression', ['config'])
    return {
      unsupported: 'it decides with a JavaScript expression, and Wardflow conditions are rules',
      key: 'conditionExpression',
      params: {},
    }
  }
  const cases = d.take('cases', ['config'])
  const single = cases === undefined ? d.take('conditions', ['config']) : undefined
  // The editor's shape: `logicalOperator` is shown there but PatchCat's engine takes each rule alone.
  if (single !== undefined) d.take('logicalOperator', ['config'])
  const rawCases: RawCase[] | undefined = Array.isArray(cases)
    ? cases.map((c: unknown) => {
        const o = isPlainObject(c) ? c : {}
        return {
          id: o.id,
          label: o.label,
          rules: Array.isArray(o.conditions) ? o.conditions : [],
          logic: o.logicalOperator,
        }
      })
    : Array.isArray(single)
      ? single.map((r: unknown) => ({
          id: isPlainObject(r) ? (r.targetHandle ?? 'if_true') : undefined,
          label: undefined,
          rules: [r],
          logic: undefined,
        }))
      : undefined
  if (rawCases === undefined || rawCases.length === 0)
    return { unsupported: 'it has no cases', key: 'conditionNoCases', params: {} }

  const used = new Set<string>()
  const taken = new Set<string>()
  const handles = new Map<string, string[]>()
  const out: Array<Record<string, unknown>> = []
  for (const [i, raw] of rawCases.entries()) {
    const where = `case ${i + 1}`
    const logic = typeof raw.logic === 'string' ? raw.logic.toLowerCase() : 'and'
    if (logic !== 'and' && logic !== 'or')
      return {
        unsupported: `${where} joins its rules with ${JSON.stringify(raw.logic)}`,
        key: 'unknownLogic',
        params: { case: i + 1, logic: text(raw.logic) },
      }
    if (raw.rules.length === 0)
      return { unsupported: `${where} has no rules`, key: 'caseNoRules', params: { case: i + 1 } }
    const rules: Rule[] = []
    for (const [j, r] of raw.rules.entries()) {
      const rule = mapRule(r, { case: i + 1, rule: j + 1 }, d.inputs, used)
      if ('unsupported' in rule) return rule
      rules.push(rule)
    }
    const id = caseId(raw.id, i, taken)
    const original = typeof raw.id === 'string' ? raw.id : id
    if (id !== original)
      keyedNote(
        into,
        `${d.nodeId}: case ${JSON.stringify(original)} became ${JSON.stringify(id)}; its connections follow it.`,
        'caseRenamed',
        { node: d.nodeId, from: original, to: id },
      )
    // Two PatchCat branches on one handle (the editor's shape allows it): each keeps its edges.
    handles.set(original, [...(handles.get(original) ?? []), id])
    const label = typeof raw.label === 'string' && raw.label !== '' ? raw.label : undefined
    out.push({ id, ...(label === undefined ? {} : { label }), match: logic === 'or' ? 'any' : 'all', rules })
  }
  const fallback = d.text('defaultBranch', ['config'])
  for (const name of new Set(['default', ELSE_HANDLE, ...(fallback === undefined ? [] : [fallback])]))
    handles.set(name, [...(handles.get(name) ?? []), ELSE_HANDLE])
  const unread = Object.keys(d.inputs).filter((k) => !used.has(k))
  for (const key of Object.keys(d.inputs)) d.take(key, ['inputs'])
  if (unread.length > 0) {
    const inputs = unread.join(', ')
    d.notes.add(
      `${d.nodeId}: inputs ${inputs} not needed: Wardflow rules read their references themselves.`,
      'issues:importNote.patchcat.conditionInputsUnused',
      { node: d.nodeId, inputs },
    )
  }
  return { config: { cases: out }, handles }
}

/** The field a PatchCat aggregator took from each input, by the input's PatchCat type, in Wardflow's names. */
const PICKED_FIELD: Readonly<Record<string, string>> = {
  prompt: 'text',
  llm: 'response',
  agent: 'response',
  code: 'result',
  http: 'body',
  knowledge: 'result',
}

/** The field downstream nodes read a PatchCat aggregator's value from (PatchCat's default: `result`). */
export function aggregatorOutputKey(data: unknown): string {
  const config = isPlainObject(data) && isPlainObject(data.config) ? data.config : {}
  const raw = typeof config.outputKey === 'string' && config.outputKey !== '' ? config.outputKey : 'result'
  const key = raw.replace(/[\s.[\]{}|"'\\]+/g, '_').slice(0, 128)
  return isValidFieldKey(key) ? key : 'result'
}

const MERGE_MODES: Readonly<Record<string, 'first' | 'all'>> = {
  first_available: 'first',
  merge_all: 'all',
  wait_all: 'all',
}

/**
 * PatchCat `aggregator` -> `merge`. PatchCat's value is the chosen input's main field
 * (`promptText`, `output`, `result` or `response`) under `outputKey`: the merge config keeps
 * `outputKey`, and `outputField` names that field when every input has the same one.
 */
export function mapAggregator(
  d: PatchCatData,
  sourceTypes: readonly string[],
  into: ImportNotes,
): FlowMapped {
  const rawMode = d.take('mode', ['config']) ?? 'first_available'
  const mode = typeof rawMode === 'string' ? MERGE_MODES[rawMode] : undefined
  if (mode === undefined)
    return {
      unsupported: `its mode ${JSON.stringify(rawMode)} has no Wardflow equivalent`,
      key: 'unknownMergeMode',
      params: { mode: text(rawMode) },
    }
  if (rawMode === 'wait_all')
    keyedNote(
      into,
      `${d.nodeId}: PatchCat's "wait_all" listed branches not taken as null; Wardflow's merge "all" lists only the branches that ran.`,
      'waitAll',
      { node: d.nodeId },
    )
  d.take('outputKey', ['config'])
  const outputKey = aggregatorOutputKey(d.data)
  const config: Record<string, unknown> = { mode, outputKey }
  const fields = new Set(sourceTypes.map((type) => PICKED_FIELD[type]))
  const [field] = fields
  if (fields.size === 1 && field !== undefined) config.outputField = field
  else if (sourceTypes.length > 0)
    keyedNote(
      into,
      `${d.nodeId}: its inputs give different kinds of values, so {{${d.nodeId}.${outputKey}}} holds the chosen input's whole output.`,
      'mergeMixedInputs',
      { node: d.nodeId, ref: `{{${d.nodeId}.${outputKey}}}` },
    )
  const inputs = Object.keys(d.inputs)
  for (const key of inputs) d.take(key, ['inputs'])
  if (inputs.length > 0) {
    const list = inputs.join(', ')
    d.notes.add(
      `${d.nodeId}: inputs ${list} not needed: a merge reads the branches connected to it.`,
      'issues:importNote.patchcat.mergeInputsUnused',
      { node: d.nodeId, inputs: list },
    )
  }
  return { config }
}

/**
 * An integer fitted into `range` (the one the inspector's field for `key` uses, read from
 * defaults.ts: the field lists load with the inspector, and an import converts synchronously).
 */
function fitted(value: unknown, key: string, range: NumberRange, d: PatchCatData): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined
  const whole = Math.max(1, Math.round(n))
  const out = Math.min(range.max, Math.max(range.min, whole))
  if (out !== n)
    d.notes.add(
      `${d.nodeId}: ${key} ${n} is outside what Wardflow allows; set to ${out}.`,
      'issues:importNote.patchcat.valueFitted',
      { node: d.nodeId, key, value: n, fitted: out },
    )
  return out
}

/** PatchCat `loop` (a list and a concurrency; no body of its own) -> `loop` in `forEach` mode. */
export function mapLoop(d: PatchCatData, into: ImportNotes): FlowMapped {
  const named = d.take('inputArrayVariable', ['config']) ?? d.take('loopVariable', ['config'])
  // PatchCat reads `inputs.items` when the loop names no list.
  const name = typeof named === 'string' && named.trim() !== '' ? named : 'items'
  const used = new Set<string>()
  const items =
    name !== 'items' || Object.hasOwn(d.inputs, name) ? (variableTemplate(name, d.inputs, used) ?? '') : ''
  for (const key of used) d.take(key, ['inputs'])
  if (items === '')
    keyedNote(
      into,
      `${d.nodeId}: PatchCat named no list to loop over; set the loop's items.`,
      'loopNoItems',
      {
        node: d.nodeId,
      },
    )
  const config: Record<string, unknown> = { mode: 'forEach', items }
  const concurrency = fitted(
    d.take('maxConcurrency', ['config']) ?? d.take('concurrency', ['config']),
    'concurrency',
    LOOP_CONCURRENCY_RANGE,
    d,
  )
  if (concurrency !== undefined) config.concurrency = concurrency
  return { config }
}

/** PatchCat `sub-workflow` -> `subflow`: the target workflow by id, its `data.inputs` as the inputs. */
export function mapSubflow(d: PatchCatData, into: ImportNotes): FlowMapped {
  const flow =
    d.text('targetWorkflowId', ['config']) ??
    d.text('workflowId', ['config']) ??
    d.text('subWorkflowId', ['config'])
  const inputs: Record<string, string> = {}
  for (const key of Object.keys(d.inputs)) {
    if (isValidFieldKey(key)) inputs[key] = text(d.take(key, ['inputs']))
  }
  keyedNote(
    into,
    flow === undefined || flow === ''
      ? `${d.nodeId}: PatchCat named no workflow to call; pick the flow in the node.`
      : `${d.nodeId}: it calls PatchCat workflow ${JSON.stringify(flow)}, which this file does not carry: import that workflow too and pick it in the node.`,
    flow === undefined || flow === '' ? 'subflowNoTarget' : 'subflowMissing',
    flow === undefined || flow === '' ? { node: d.nodeId } : { node: d.nodeId, flow },
  )
  return { config: { flow: flow ?? '', inputs } }
}
