/** The merge node's run, loaded on the first run of a merge. */
import { valueToText, type NodeExecution, type NodeResult } from '../../engine/index.ts'
import type { MergeConfig } from './schema.ts'

type Output = Record<string, unknown>

/** `outputField` of one input's output, or the whole output without it. */
function picked(output: Output | null, field: string | undefined): unknown {
  if (field === undefined || output === null) return output
  return Object.hasOwn(output, field) ? output[field] : null
}

export async function executeMerge({
  config,
  inputs = {},
  inputOrder,
  emit,
}: NodeExecution<MergeConfig>): Promise<NodeResult> {
  // Edge order, not the record's key order (which puts integer-like ids such as "12" first).
  const order = (inputOrder ?? Object.keys(inputs)).filter((id) => Object.hasOwn(inputs, id))
  const { outputKey, outputField } = config
  if (config.mode === 'all') {
    const values = Object.create(null) as Output
    const keyed = Object.create(null) as Output
    for (const id of order) {
      const output = inputs[id] ?? null
      values[id] = output
      keyed[id] = picked(output, outputField)
    }
    emit.chunk(order.join(', '), 'output')
    return { output: outputKey === undefined ? { values } : { values, [outputKey]: keyed } }
  }
  const from = order[0] ?? null
  const value = from === null ? null : (inputs[from] ?? null)
  emit.chunk(valueToText(value), 'output')
  const output: Output = { value, from }
  if (outputKey !== undefined) output[outputKey] = picked(value, outputField)
  return { output }
}
