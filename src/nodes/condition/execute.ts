/**
 * The condition node's run: resolves each rule's templates, takes the first case that holds
 * (else `else`) and marks the other handles not taken. Loaded on the first run of a condition.
 */
import type { NodeExecution, NodeResult } from '../../engine/index.ts'
import { caseHolds, type ResolvedRule } from './evaluate.ts'
import { ELSE_PORT, type ConditionCase, type ConditionConfig, type ConditionRule } from './schema.ts'

/**
 * The console note of a rule that could not compare. Returned rather than declared inline: a
 * named arrow costs a name-keeping call per evaluation under tsx, the CLI's and bench's loader.
 */
function logTo(emit: NodeExecution<ConditionConfig>['emit']): (text: string) => void {
  return (text) => emit.chunk(`${text}\n`, 'log')
}

export async function executeCondition({
  config,
  resolve,
  emit,
}: NodeExecution<ConditionConfig>): Promise<NodeResult> {
  const note = logTo(emit)
  let taken: string = ELSE_PORT
  let value: string | null = null
  // Plain loops, no closures per rule: this runs on every evaluation (bench/condition.bench.ts).
  const { cases } = config
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as ConditionCase
    const rules: ResolvedRule[] = []
    for (let j = 0; j < c.rules.length; j++) {
      const rule = c.rules[j] as ConditionRule
      // Text without a reference is itself: no field path to build, nothing to resolve.
      const value = rule.value.includes('{{')
        ? resolve(rule.value, `cases[${i}].rules[${j}].value`)
        : rule.value
      const to = rule.to.includes('{{') ? resolve(rule.to, `cases[${i}].rules[${j}].to`) : rule.to
      rules.push({ rule, value, to })
    }
    // With no case holding, `value` is the first case's first rule's value.
    if (i === 0) value = rules[0]?.value ?? null
    if (caseHolds(c, rules, note)) {
      taken = c.id
      value = rules[0]?.value ?? null
      break
    }
  }
  emit.chunk(taken, 'output')
  const notTaken: string[] = []
  for (const c of cases) if (c.id !== taken) notTaken.push(c.id)
  if (taken !== ELSE_PORT) notTaken.push(ELSE_PORT)
  return { output: { case: taken, value }, notTaken }
}
