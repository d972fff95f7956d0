/**
 * The run's timeline (issue 19, item 4): each node of the flow that started or was reused, as a
 * bar from its start to its end on the run's time axis, in the order the nodes started. Pure, so
 * it is tested without rendering.
 */
import type { NodeRunState } from '../../store/runStore.ts'

export interface TimelineRow {
  nodeId: string
  /** Where the bar starts and how long it is, in % of the run's duration. */
  startPct: number
  widthPct: number
  startMs: number
  durationMs: number
  status: NodeRunState['status']
  cached?: string
}

/** Rows for the nodes of `nodes` that have a start time, relative to `runStartedAt`. */
export function timelineRows(
  nodes: Readonly<Record<string, NodeRunState>>,
  runStartedAt: number,
  runDurationMs: number,
): TimelineRow[] {
  const rows: TimelineRow[] = []
  for (const [nodeId, state] of Object.entries(nodes)) {
    if (state.startedAt === undefined && !state.cached) continue
    const startMs = Math.max(0, (state.startedAt ?? runStartedAt) - runStartedAt)
    const durationMs = state.durationMs ?? 0
    rows.push({
      nodeId,
      startMs,
      durationMs,
      startPct: 0,
      widthPct: 0,
      status: state.status,
      ...(state.cached ? { cached: state.cached.reason } : {}),
    })
  }
  const total = Math.max(1, runDurationMs, ...rows.map((r) => r.startMs + r.durationMs))
  for (const row of rows) {
    row.startPct = (row.startMs / total) * 100
    row.widthPct = (row.durationMs / total) * 100
  }
  return rows.sort((a, b) => a.startMs - b.startMs || a.nodeId.localeCompare(b.nodeId))
}
