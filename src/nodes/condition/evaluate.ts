/**
 * Rule evaluation of the condition node, on resolved text. Pure: the executor resolves the
 * templates and reports through `note` (a rule on a value that is not a number says so).
 */
import type { ConditionCase, ConditionRule } from './schema.ts'

/** A rule after template resolution. */
export interface ResolvedRule {
  rule: ConditionRule
  value: string
  to: string
}

/** The RegExp of a `matches` rule, or the engine's message when the pattern is not valid. */
export function compilePattern(rule: Pick<ConditionRule, 'to' | 'ignoreCase'>): RegExp | string {
  try {
    return new RegExp(rule.to, rule.ignoreCase ? 'i' : '')
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function asNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

/** Whether one resolved rule holds; `note` hears why a numeric rule could not compare. */
export function ruleHolds({ rule, value, to }: ResolvedRule, note: (text: string) => void): boolean {
  const fold = (s: string) => (rule.ignoreCase ? s.toLowerCase() : s)
  const [a, b] = [fold(value), fold(to)]
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
      const pattern = compilePattern(rule)
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
  return c.match === 'any' ? rules.some((r) => ruleHolds(r, note)) : rules.every((r) => ruleHolds(r, note))
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
  for (const [i, c] of cases.entries()) {
    const rules: ResolvedRule[] = c.rules.map((rule, j) => ({
      rule,
      value: resolve(rule.value, `cases[${i}].rules[${j}].value`),
      to: resolve(rule.to, `cases[${i}].rules[${j}].to`),
    }))
    if (i === 0) value = rules[0]?.value ?? null
    if (caseHolds(c, rules, note)) return { taken: c.id, value: rules[0]?.value ?? null }
  }
  return { taken: elseId, value }
}
