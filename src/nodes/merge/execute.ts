/** The merge node's run, loaded on the first run of a merge. */
import { valueToText, type NodeExecution, type NodeResult } from '../../engine/index.ts'
import type { MergeConfig } from './schema.ts'

export async function executeMerge({
  config,
  inputs,
  emit,
}: NodeExecution<MergeConfig>): Promise<NodeResult> {
  const finished = Object.entries(inputs ?? {})
  if (config.mode === 'all') {
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    for (const [id, output] of finished) values[id] = output
    emit.chunk(finished.map(([id]) => id).join(', '), 'output')
    return { output: { values } }
  }
  const [from, value] = finished[0] ?? [null, null]
  emit.chunk(valueToText(value), 'output')
  return { output: { value, from } }
}
