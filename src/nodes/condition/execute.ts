/**
 * The condition node's run: resolves each rule's templates, takes the first case that holds
 * (else `else`) and marks the other handles not taken. Loaded on the first run of a condition.
 */
import type { NodeExecution, NodeResult } from '../../engine/index.ts'
import { chooseCase } from './evaluate.ts'
import { ELSE_PORT, type ConditionConfig } from './schema.ts'

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
  const { taken, value } = chooseCase(config.cases, resolve, logTo(emit), ELSE_PORT)
  emit.chunk(taken, 'output')
  const notTaken: string[] = []
  for (const c of config.cases) if (c.id !== taken) notTaken.push(c.id)
  if (taken !== ELSE_PORT) notTaken.push(ELSE_PORT)
  return { output: { case: taken, value }, notTaken }
}
