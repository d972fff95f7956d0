/**
 * The cases editor's view of a condition config: a tolerant read of whatever the config holds
 * (a hand-edited file may hold anything), fresh ids, moves, and the upstream fields a rule can
 * read. Pure, so the editor's rules are unit-tested without a DOM.
 */
import { NODE_ID_PATTERN } from '../../../defaults.ts'
import { renderTemplate, type OutputLookup } from '../../../engine/index.ts'
import { chooseCase, type CaseChoice } from '../../../nodes/condition/evaluate.ts'
import {
  CONDITION_OPS,
  ELSE_PORT,
  type ConditionCase,
  type ConditionOp,
  type ConditionRule,
} from '../../../nodes/condition/schema.ts'

export { CONDITION_OPS, ELSE_PORT }
export type { ConditionCase, ConditionOp, ConditionRule }

/** Ops that compare with nothing: their `to` is hidden. */
export const UNARY_OPS: ReadonlySet<ConditionOp> = new Set(['isEmpty', 'isNotEmpty'])

function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

function asRule(v: unknown): ConditionRule {
  const r = (v ?? {}) as Record<string, unknown>
  const op = (CONDITION_OPS as readonly string[]).includes(text(r['op']))
    ? (r['op'] as ConditionOp)
    : 'equals'
  const rule: ConditionRule = { value: text(r['value']), op, to: text(r['to']) }
  if (r['ignoreCase'] === true) rule.ignoreCase = true
  return rule
}

export function asCases(value: unknown): ConditionCase[] {
  if (!Array.isArray(value)) return []
  return value.map((v: unknown, index) => {
    const c = (v ?? {}) as Record<string, unknown>
    const out: ConditionCase = {
      id: text(c['id']) || `case_${index + 1}`,
      match: c['match'] === 'any' ? 'any' : 'all',
      rules: Array.isArray(c['rules']) ? c['rules'].map(asRule) : [],
    }
    if (typeof c['label'] === 'string') out.label = c['label']
    return out
  })
}

export function freshCaseId(cases: readonly ConditionCase[]): string {
  const used = new Set(cases.map((c) => c.id))
  let n = cases.length + 1
  while (used.has(`case_${n}`)) n += 1
  return `case_${n}`
}

/** Why a typed case id cannot be saved, or null when it can. */
export function caseIdProblem(
  cases: readonly ConditionCase[],
  index: number,
  id: string,
): 'pattern' | 'else' | 'duplicate' | null {
  if (!NODE_ID_PATTERN.test(id)) return 'pattern'
  if (id === ELSE_PORT) return 'else'
  if (cases.some((c, i) => i !== index && c.id === id)) return 'duplicate'
  return null
}

export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list]
  const out = [...list]
  const [item] = out.splice(from, 1)
  if (item !== undefined) out.splice(to, 0, item)
  return out
}

export { upstreamRefs } from './upstreamFields.ts'

/**
 * The case these rules take with the outputs `lookup` gives (the last run's), by the engine's own
 * evaluation; null when a reference cannot be read at all (a refused name).
 */
export function previewChoice(cases: readonly ConditionCase[], lookup: OutputLookup): CaseChoice | null {
  try {
    return chooseCase(
      cases,
      (template) => renderTemplate(template, lookup),
      () => undefined,
      ELSE_PORT,
    )
  } catch {
    return null
  }
}
