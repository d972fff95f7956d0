/** Condition node config: cases of rules, tried in order (../shared/design/flow-control.md). */
import { z } from '../../zodMini.ts'
import { CONDITION_PATTERN_CACHE_ENTRIES, NODE_ID_PATTERN } from '../../defaults.ts'

export const CONDITION_CONFIG_VERSION = 1

/** The output taken when no case holds; a case may not use it as its id. */
export const ELSE_PORT = 'else'

export const CONDITION_OPS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'matches',
  'gt',
  'gte',
  'lt',
  'lte',
  'isEmpty',
  'isNotEmpty',
] as const
export type ConditionOp = (typeof CONDITION_OPS)[number]

export const ruleSchema = z.object({
  /** A template, e.g. `{{ticket.category}}`. */
  value: z._default(z.string(), ''),
  op: z._default(z.enum(CONDITION_OPS), 'equals'),
  /** A template; unused by isEmpty / isNotEmpty. */
  to: z._default(z.string(), ''),
  ignoreCase: z.optional(z.boolean()),
})
export type ConditionRule = z.infer<typeof ruleSchema>

export const caseSchema = z.object({
  /** The case's output handle id, and what `{{node.case}}` reads when it is taken. */
  id: z.string().check(
    z.regex(NODE_ID_PATTERN, { message: 'Use 1 to 64 letters, digits, "_" or "-" for a case id.' }),
    z.refine((id) => id !== ELSE_PORT, { message: `"${ELSE_PORT}" is the output when no case holds.` }),
  ),
  label: z.optional(z.string()),
  match: z._default(z.enum(['all', 'any']), 'all'),
  rules: z._default(z.array(ruleSchema), []),
})
export type ConditionCase = z.infer<typeof caseSchema>

export const conditionConfigSchema = z.object({
  configVersion: z._default(z.literal(CONDITION_CONFIG_VERSION), CONDITION_CONFIG_VERSION),
  cases: z._default(z.array(caseSchema), []).check(
    z.superRefine((cases, ctx) => {
      const seen = new Set<string>()
      cases.forEach((c, index) => {
        if (seen.has(c.id))
          ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `Two cases have the id "${c.id}".` })
        seen.add(c.id)
      })
    }),
  ),
})

export type ConditionConfig = z.infer<typeof conditionConfigSchema>

export function defaultConditionConfig(): ConditionConfig {
  return {
    configVersion: CONDITION_CONFIG_VERSION,
    cases: [{ id: 'case_1', match: 'all', rules: [{ value: '', op: 'equals', to: '' }] }],
  }
}

/**
 * Compiled patterns by flags and source, shared by every evaluation (without the `g` flag a
 * RegExp keeps no state between tests); emptied when full.
 */
const patterns = new Map<string, RegExp | string>()

/** The RegExp of a `matches` rule, or the engine's message when the pattern is not valid. */
export function compilePattern(rule: Pick<ConditionRule, 'to' | 'ignoreCase'>): RegExp | string {
  const flags = rule.ignoreCase ? 'i' : ''
  const key = `${flags}/${rule.to}`
  let pattern = patterns.get(key)
  if (pattern === undefined) {
    try {
      pattern = new RegExp(rule.to, flags)
    } catch (error) {
      pattern = error instanceof Error ? error.message : String(error)
    }
    if (patterns.size >= CONDITION_PATTERN_CACHE_ENTRIES) patterns.clear()
    patterns.set(key, pattern)
  }
  return pattern
}
