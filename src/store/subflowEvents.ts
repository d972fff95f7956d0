/**
 * Events from inside a sub-flow (a `subflow` segment in their `nesting`) name nodes of the
 * called flow, whose ids may repeat the calling flow's. They never change a node of the canvas
 * by their own id: they belong to the calling `subflow` node of the canvas (engine `canvasPlace`,
 * which may sit in a loop body), whose console shows the called flow's streamed text as it comes,
 * and a line for each failure and guard alert inside.
 */
import type { CanvasPlace, RunEvent } from '../engine/index.ts'
import type { ConsoleLine, LineLabeller } from './runStoreReducer.ts'

/** `inner` for the node `inner` of the flow the calling node runs; `each #2 › inner` deeper down. */
export function innerWhere(place: CanvasPlace, nodeId: string): string {
  const steps = place.below.map((s) => (s.kind === 'loop' ? `${s.nodeId} #${s.iteration ?? 0}` : s.nodeId))
  return [...steps, nodeId].join(' › ')
}

/** What the calling node's console gets for a sub-flow event: streamed text, a line, or nothing. */
export type SubflowConsole =
  | { kind: 'text'; channel: 'output' | 'reasoning' | 'log'; text: string; from: string }
  | { kind: 'line'; line: ConsoleLine }
  | null

export function subflowConsole(
  event: RunEvent & { nodeId: string },
  place: CanvasPlace,
  lines?: LineLabeller,
): SubflowConsole {
  const where = innerWhere(place, event.nodeId)
  switch (event.type) {
    case 'nodeChunk':
      return { kind: 'text', channel: event.channel, text: event.text, from: where }
    case 'nodeError':
      if (event.code === 'CANCELLED') return null
      return {
        kind: 'line',
        line: {
          kind: 'error',
          text: `${where}: ${lines ? lines.error(event.code, event.message) : event.message}`,
        },
      }
    case 'guard':
      return {
        kind: 'line',
        line: { kind: 'guard', layer: event.layer, level: event.level, text: `${where}: ${event.message}` },
      }
    default:
      return null
  }
}
