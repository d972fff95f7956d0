/**
 * Where a node event happened (events.ts `nesting` and `path`). Runs place their own events
 * relative to themselves: a loop body adds its loop segment, a sub-flow node adds its own segment
 * (and its id to `path`) to what its called flow emits, so a segment list nests to any depth and
 * every consumer reads the same structure.
 */
import type { NestingSegment, RunEvent } from './events.ts'

/** The event as the flow around a `subflow` node `nodeId` sees it (a new object). */
export function throughSubflow(event: RunEvent, nodeId: string): RunEvent {
  return {
    ...event,
    path: [nodeId, ...(event.path ?? [])],
    nesting: [{ nodeId, kind: 'subflow' }, ...(event.nesting ?? [])],
  }
}

/** The event with `outer` (the containers around where it was emitted) put in front (a new object). */
export function withinNesting(event: RunEvent, outer: readonly NestingSegment[]): RunEvent {
  if (outer.length === 0) return event
  return { ...event, nesting: [...outer, ...(event.nesting ?? [])] }
}

/**
 * Which node of the flow that was run an event belongs to on its canvas: the node itself, or the
 * outermost `subflow` node that leads to it (`inner` then true). `loops` are the loop segments
 * around that canvas node, outermost first.
 */
export interface CanvasPlace {
  nodeId: string
  inner: boolean
  loops: readonly NestingSegment[]
  /** The segments past the canvas node (inside its called flow); empty when not inner. */
  below: readonly NestingSegment[]
}

export function canvasPlace(event: { nodeId: string; nesting?: readonly NestingSegment[] }): CanvasPlace {
  const nesting = event.nesting ?? []
  const call = nesting.findIndex((s) => s.kind === 'subflow')
  if (call < 0) return { nodeId: event.nodeId, inner: false, loops: nesting, below: [] }
  const caller = nesting[call] as NestingSegment
  return { nodeId: caller.nodeId, inner: true, loops: nesting.slice(0, call), below: nesting.slice(call + 1) }
}

/** A text key for a segment list: equal keys, the same place (loop iterations included). */
export function nestingKey(nesting: readonly NestingSegment[] | undefined): string {
  if (nesting === undefined || nesting.length === 0) return ''
  let key = ''
  for (const s of nesting) key += `${s.kind === 'loop' ? `L${s.iteration ?? 0}` : 'S'}:${s.nodeId}\u0000`
  return key
}

/** One stream of one node at one place: a body node's iterations and a sub-flow's nodes are apart. */
export function nodeStreamKey(event: { nodeId: string; nesting?: readonly NestingSegment[] }): string {
  return nestingKey(event.nesting) + event.nodeId
}
