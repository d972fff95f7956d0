import { describe, expect, it } from 'vitest'
import { IterationWindow } from '../../src/app/runs/iterationWindow.ts'
import type { RunEvent } from '../../src/engine/index.ts'

const body = (type: 'nodeStart' | 'nodeFinish', iteration: number, nodeId = 'b'): RunEvent =>
  (type === 'nodeStart'
    ? { type, runId: 'r', at: 0, nodeId, inputs: {}, nesting: [{ nodeId: 'each', kind: 'loop', iteration }] }
    : {
        type,
        runId: 'r',
        at: 0,
        nodeId,
        status: 'success',
        output: {},
        durationMs: 0,
        nesting: [{ nodeId: 'each', kind: 'loop', iteration }],
      }) as RunEvent

describe('iteration window of the run record', () => {
  it('drops the oldest iteration past the cap, and the late events of a dropped one', () => {
    const forgotten: number[] = []
    const window = new IterationWindow((seq) => forgotten.push(seq), 2)
    const events = [body('nodeStart', 0), body('nodeStart', 1), body('nodeStart', 2), body('nodeFinish', 0)]
    const kept = events.map((e, seq) => window.admit(e, seq))
    // Iteration 2 starting drops iteration 0 (its start, seq 0); 0's late finish is left out.
    expect(kept).toEqual([true, true, true, false])
    expect(forgotten).toEqual([0])
    expect(window.counts()).toEqual({ each: 1 })
    // Events outside a body, and sub-flow events (no loop segment), are always kept.
    const top = { type: 'nodeStart', runId: 'r', at: 0, nodeId: 'x', inputs: {} } as RunEvent
    expect(window.admit(top, 9)).toBe(true)
    expect(window.admit({ ...top, path: ['sub'], nesting: [{ nodeId: 'sub', kind: 'subflow' }] }, 10)).toBe(
      true,
    )
  })
})
