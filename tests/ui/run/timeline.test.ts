import { describe, expect, it } from 'vitest'
import { IDLE_RUN_STATE, type NodeRunState } from '../../../src/store/runStore.ts'
import { timelineRows } from '../../../src/ui/run/timeline.ts'

const state = (patch: Partial<NodeRunState>): NodeRunState => ({ ...IDLE_RUN_STATE, ...patch })

describe('the run timeline', () => {
  it('puts each node that ran on the run axis in start order, and reused nodes as not run', () => {
    const rows = timelineRows(
      {
        b: state({ status: 'success', startedAt: 1_050, durationMs: 50 }),
        a: state({ status: 'success', startedAt: 1_000, durationMs: 50 }),
        kept: state({ status: 'success', durationMs: 0, cached: { reason: 'reused', fromRunId: 'r1' } }),
        never: state({ status: 'skipped' }),
      },
      1_000,
      100,
    )
    expect(rows.map((r) => [r.nodeId, r.startPct, r.widthPct, r.cached])).toEqual([
      ['a', 0, 50, undefined],
      ['kept', 0, 0, 'reused'],
      ['b', 50, 50, undefined],
    ])
  })
})
