/**
 * The sub-flow node's run: fills the called flow's Input keys and runs it through the engine
 * (engine/subflow.ts). Loaded on the first run of a sub-flow, with the engine's runner.
 */
import { runSubflow, type NodeExecution, type NodeResult } from '../../engine/run.ts'
import type { SubflowConfig } from './schema.ts'

export async function executeSubflow(exec: NodeExecution<SubflowConfig>): Promise<NodeResult> {
  const inputs: Record<string, string> = {}
  for (const [key, template] of Object.entries(exec.config.inputs))
    inputs[key] = exec.resolve(template, `inputs.${key}`)
  return runSubflow(exec, exec.config.flow, inputs)
}
