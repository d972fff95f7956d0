/**
 * Rule evaluation of the condition node, on resolved text. Pure: the executor resolves the
 * templates and reports through `note` (a rule on a value that is not a number, or a pattern that
 * is not a regular expression, says so).
 */
import { compilePattern, type ConditionCase, type ConditionRule } from './schema.ts'

/** A rule after template resolution. */
export interface ResolvedRule {
  rule: ConditionRule
  value: string
  to: string
}

function asNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

/**
 * Whether one resolved rule holds; `note` hears why a numeric rule could not compare. No
 * closures or arrays per call: a condition runs every rule on every evaluation, and under tsx
 * each closure created costs a name-keeping call (bench/condition.bench.ts).
 */
export function ruleHolds({ rule, value, to }: ResolvedRule, note: (text: string) => void): boolean {
  const a = rule.ignoreCase ? value.toLowerCase() : value
  const b = rule.ignoreCase ? to.toLowerCase() : to
  switch (rule.op) {
    case 'equals':
      return a === b
    case 'notEquals':
      return a !== b
    case 'contains':
      return a.includes(b)
    case 'notContains':
      return !a.includes(b)
    case 'startsWith':
      return a.startsWith(b)
    case 'endsWith':
      return a.endsWith(b)
    case 'matches': {
      // The resolved `to`: a pattern may be built from upstream values.
      const pattern = compilePattern({ to, ignoreCase: rule.ignoreCase })
      if (typeof pattern !== 'string') return pattern.test(value)
      // Preflight refuses a bad literal pattern; one built from a reference is found bad here.
      note(`"${to}" is not a regular expression (${pattern}), so the rule matches is false.`)
      return false
    }
    case 'isEmpty':
      return value.trim() === ''
    case 'isNotEmpty':
      return value.trim() !== ''
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const [x, y] = [asNumber(value), asNumber(to)]
      if (x === undefined || y === undefined) {
        const bad = x === undefined ? value : to
        note(`"${bad}" is not a number, so the rule ${rule.op} is false.`)
        return false
      }
      return rule.op === 'gt' ? x > y : rule.op === 'gte' ? x >= y : rule.op === 'lt' ? x < y : x <= y
    }
  }
}

/** Whether a case holds: every rule (`all`) or one of them (`any`); a case without rules never does. */
export function caseHolds(
  c: ConditionCase,
  rules: readonly ResolvedRule[],
  note: (text: string) => void,
): boolean {
  if (rules.length === 0) return false
  // `any` stops at the first rule that holds, `all` at the first that does not.
  const stopAt = c.match === 'any'
  for (const rule of rules) if (ruleHolds(rule, note) === stopAt) return stopAt
  return !stopAt
}

/** The case a condition takes and its output value; `resolve` fills a rule's templates in. */
export interface CaseChoice {
  /** A case id, or `else` when none holds. */
  taken: string
  value: string | null
}

/**
 * Tries the cases in order (the executor and the inspector's preview both call this, so the
 * preview says what a run would do). With no case holding, `value` is the first case's first
 * rule's value.
 */
export function chooseCase(
  cases: readonly ConditionCase[],
  resolve: (template: string, field: string) => string,
  note: (text: string) => void,
  elseId: string,
): CaseChoice {
  let value: string | null = null
  // Plain loops, no closures per rule: this runs on every evaluation (bench/condition.bench.ts).
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as ConditionCase
    const rules: ResolvedRule[] = []
    for (let j = 0; j < c.rules.length; j++) {
      const rule = c.rules[j] as ConditionRule
      // Text without a reference is itself: no field path to build, nothing to resolve.
      const ruleValue = rule.value.includes('{{')
        ? resolve(rule.value, `cases[${i}].rules[${j}].value`)
        : rule.value
      const to = rule.to.includes('{{') ? resolve(rule.to, `cases[${i}].rules[${j}].to`) : rule.to
      rules.push({ rule, value: ruleValue, to })
    }
    // With no case holding, `value` is the first case's first rule's value.
    if (i === 0) value = rules[0]?.value ?? null
    if (caseHolds(c, rules, note)) return { taken: c.id, value: rules[0]?.value ?? null }
  }
  return { taken: elseId, value }
}
