/**
 * Rule evaluation of the condition node, on resolved text. Pure: the executor resolves the
 * templates and reports through `note` (a rule on a value that is not a number says so).
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
      return typeof pattern !== 'string' && pattern.test(value)
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
  const any = c.match === 'any'
  for (const rule of rules) if (ruleHolds(rule, note) === any) return any
  return !any
}
