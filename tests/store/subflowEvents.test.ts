import { describe, expect, it } from 'vitest'
import { RunRecorder } from '../../src/app/runs/runRecorder.ts'
import { EventScrubber, type RunEvent } from '../../src/engine/index.ts'
import { replayRunEvents } from '../../src/store/runStoreReducer.ts'

const at = 1_000
const base = { runId: 'r1', at }
/** Where the engine places an event of the flow `call` runs (engine nesting.ts). */
const inCall = { path: ['call'], nesting: [{ nodeId: 'call', kind: 'subflow' as const }] }

/** A run of `q -> call` where `call` runs a sub-flow whose nodes are also named `q`. */
const events: RunEvent[] = [
  { ...base, type: 'runStart', flowId: 'main', nodeIds: ['q', 'call'] },
  { ...base, type: 'nodeStart', nodeId: 'q', inputs: {} },
  { ...base, type: 'nodeFinish', nodeId: 'q', status: 'success', output: { topic: 'tea' }, durationMs: 1 },
  { ...base, type: 'nodeStart', nodeId: 'call', inputs: {} },
  { ...base, type: 'nodeStart', nodeId: 'q', inputs: {}, ...inCall },
  { ...base, type: 'nodeChunk', nodeId: 'q', text: 'inner text', channel: 'output', ...inCall },
  {
    ...base,
    type: 'nodeError',
    nodeId: 'q',
    code: 'HTTP_STATUS',
    message: 'no luck',
    durationMs: 1,
    ...inCall,
  },
  {
    ...base,
    type: 'nodeError',
    nodeId: 'call',
    code: 'SUBFLOW_FAILED',
    message: 'The sub-flow "x" failed at "q": no luck',
    durationMs: 2,
  },
  {
    ...base,
    type: 'runFinish',
    status: 'error',
    usage: { prompt: 0, completion: 0, total: 0, estimated: false },
    durationMs: 3,
  },
]

describe('events from inside a sub-flow', () => {
  it('never change the canvas node that shares their id; text and failures show in the calling node’s console', () => {
    const view = replayRunEvents(events)
    expect(view.nodes['q']).toMatchObject({ status: 'success', output: { topic: 'tea' } })
    expect(view.nodes['q']?.consoleLines.map((l) => l.text).join('')).not.toContain('inner text')
    expect(view.nodes['call']?.status).toBe('error')
    expect(view.nodes['call']?.consoleLines.map((l) => [l.kind, l.text])).toEqual([
      ['info', '› q'],
      ['output', 'inner text'],
      ['error', 'q: no luck'],
      ['error', 'The sub-flow "x" failed at "q": no luck'],
    ])
    expect(view.run?.done).toBe(2)
  })

  it('are kept in the run record, but not as outputs or timings of the caller’s nodes', () => {
    const recorder = new RunRecorder('main')
    for (const event of events) recorder.push(event)
    const record = recorder.record()
    expect(record?.outputs).toEqual({ q: { topic: 'tea' } })
    expect(Object.keys(record?.timings ?? {}).sort()).toEqual(['call', 'q'])
    const kept = (record?.events ?? []) as RunEvent[]
    expect(kept.filter((e) => e.path !== undefined)).toHaveLength(3)
  })

  it('are scrubbed as their own stream, apart from the caller’s node of the same id', () => {
    const scrubber = new EventScrubber(['sk-secret-123456'])
    const outer: RunEvent = { ...base, type: 'nodeChunk', nodeId: 'q', text: 'key sk-sec', channel: 'output' }
    const inner: RunEvent = {
      ...base,
      type: 'nodeChunk',
      nodeId: 'q',
      text: 'ret-123456 end',
      channel: 'output',
      ...inCall,
    }
    const out = [...scrubber.push(outer), ...scrubber.push(inner), ...scrubber.end()]
    // The inner piece does not complete the outer one's held tail into a key: each stream is its own.
    const textOf = (inner: boolean) =>
      out
        .filter((e) => e.type === 'nodeChunk' && (e.path !== undefined) === inner)
        .map((e) => (e.type === 'nodeChunk' ? e.text : ''))
        .join('')
    expect(textOf(false)).toBe('key sk-sec')
    expect(textOf(true)).toBe('ret-123456 end')
  })
})
