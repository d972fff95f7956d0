/** Runs a flow of real node types with fakes and collects its events (manual clock driven). */
import { runFlow, type RunContext, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import type { FlowDocument } from '../../src/engine/run.ts'
import type { ManualClock } from '../support/manualClock.ts'

export async function runWithClock(
  doc: FlowDocument,
  ctx: RunContext,
  clock: ManualClock,
): Promise<RunEvent[]> {
  const events: RunEvent[] = []
  const done = (async () => {
    for await (const event of runFlow(doc, engineRegistry, ctx)) events.push(event)
  })()
  await clock.runAll()
  await done
  return events
}

/** The output of `nodeId`'s nodeFinish event. */
export function outputOf(events: RunEvent[], nodeId: string): Record<string, unknown> | undefined {
  for (const e of events) if (e.type === 'nodeFinish' && e.nodeId === nodeId) return e.output
  return undefined
}

/** All console text one node streamed on one channel. */
export function consoleOf(
  events: RunEvent[],
  nodeId: string,
  channel: 'output' | 'reasoning' | 'log' = 'output',
): string {
  return events
    .filter((e) => e.type === 'nodeChunk' && e.nodeId === nodeId && e.channel === channel)
    .map((e) => (e.type === 'nodeChunk' ? e.text : ''))
    .join('')
}
