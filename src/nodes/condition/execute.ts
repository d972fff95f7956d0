/**
 * The condition node's run: resolves each rule's templates, takes the first case that holds
 * (else `else`) and marks the other handles not taken. Loaded on the first run of a condition.
 */
import type { NodeExecution, NodeResult } from '../../engine/index.ts'
import { caseHolds, type ResolvedRule } from './evaluate.ts'
import { conditionPorts } from './index.ts'
import { ELSE_PORT, type ConditionConfig } from './schema.ts'

export async function executeCondition({
  config,
  resolve,
  emit,
}: NodeExecution<ConditionConfig>): Promise<NodeResult> {
  const note = (text: string) => emit.chunk(`${text}\n`, 'log')
  let taken: string = ELSE_PORT
  let value: string | null = null
  for (const [i, c] of config.cases.entries()) {
    const rules: ResolvedRule[] = c.rules.map((rule, j) => ({
      rule,
      value: resolve(rule.value, `cases[${i}].rules[${j}].value`),
      to: resolve(rule.to, `cases[${i}].rules[${j}].to`),
    }))
    // With no case holding, `value` is the first case's first rule's value.
    if (i === 0) value = rules[0]?.value ?? null
    if (caseHolds(c, rules, note)) {
      taken = c.id
      value = rules[0]?.value ?? null
      break
    }
  }
  emit.chunk(taken, 'output')
  const ports = conditionPorts(config).outputs.map((p) => p.id)
  return { output: { case: taken, value }, notTaken: ports.filter((id) => id !== taken) }
}
