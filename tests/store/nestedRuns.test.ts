import { describe, expect, it } from 'vitest'
import { RunRecorder } from '../../src/app/runs/runRecorder.ts'
import { parseStoredEvents, upgradeLegacyPlace } from '../../src/app/runs/runEventSchema.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { replayRunEvents, type RunView } from '../../src/store/runStoreReducer.ts'
import { caller, failer, leaf, loopCaller, loopInLoop, looper, runNested } from '../support/nestedFlows.ts'

const texts = (view: RunView, id: string) => view.nodes[id]?.consoleLines.map((l) => `${l.kind}: ${l.text}`)

/** The view a run gives live, and the one its saved record gives when opened from history. */
function liveAndStored(events: RunEvent[], flowId: string): RunView[] {
  const recorder = new RunRecorder(flowId)
  for (const event of events) recorder.push(event)
  const saved = JSON.parse(JSON.stringify(recorder.record()?.events)) as unknown[]
  return [replayRunEvents(events), replayRunEvents(parseStoredEvents(saved))]
}

describe('run store: loops and sub-flows nested in each other', () => {
  it('a sub-flow in a loop body: the calling body node keeps its iterations and shows the called text', async () => {
    const events = await runNested(loopCaller('leaf'), leaf)
    for (const view of liveAndStored(events, 'main')) {
      const call = view.nodes['call']
      expect(call?.iterations?.map((r) => [r.iteration, r.status, r.output?.['text']])).toEqual([
        [0, 'success', '[a]'],
        [1, 'success', '[b]'],
      ])
      expect(texts(view, 'call')).toEqual(['info: › out', 'output: [a][b]'])
      // The called flow's `in`, `t` and `out` are not this canvas's nodes.
      expect(view.nodes['t']).toBeUndefined()
      expect(view.nodes['out']).toMatchObject({ status: 'success', output: { n: '2' } })
      expect(view.run).toMatchObject({ status: 'success', total: 2, done: 2 })
    }
  })

  it('a loop in a sub-flow: nothing lands on the canvas node that shares an id with the called flow', async () => {
    const events = await runNested(caller('main', 'looper', 'n'), looper)
    for (const view of liveAndStored(events, 'main')) {
      expect(view.nodes['out']).toMatchObject({ status: 'success', output: { result: '2' } })
      expect(view.nodes['out']?.iterations).toBeUndefined()
      expect(view.nodes['fmt']).toBeUndefined()
      expect(view.nodes['each']).toBeUndefined()
      expect(texts(view, 'call')).toEqual(['info: › each', 'output: 2 results', 'info: › out', 'output: 2'])
      expect(view.run).toMatchObject({ total: 3, done: 3 })
    }
  })

  it('a failure in a loop inside a sub-flow is a line of the calling node naming the way down', async () => {
    const events = await runNested(caller('main', 'failer', 'n'), failer)
    const [view] = liveAndStored(events, 'main')
    expect(texts(view as RunView, 'call')).toContainEqual(
      expect.stringMatching(/^error: each #0 › f: Could not reach http:\/\/127\.0\.0\.1:9/),
    )
    expect(view?.nodes['call']?.status).toBe('success')
  })

  it('two levels of sub-flow: everything shows under the outermost calling node', async () => {
    const events = await runNested(
      caller('outer', 'middle', 'result'),
      caller('middle', 'leaf', 'text'),
      leaf,
    )
    for (const view of liveAndStored(events, 'outer')) {
      expect(texts(view, 'call')).toEqual([
        'info: › call › out',
        'output: [tea]',
        'info: › out',
        'output: [tea]',
      ])
      expect(view.nodes['q']).toMatchObject({ status: 'success', output: { topic: 'tea' } })
      expect(view.nodes['out']).toMatchObject({ output: { result: '[tea]' } })
    }
  })

  it('a loop in a loop body: one iteration record per pair of iterations, in order', async () => {
    const events = await runNested(loopInLoop)
    for (const view of liveAndStored(events, 'grid')) {
      const t = view.nodes['t']?.iterations ?? []
      expect(
        t.map((r) => `${r.loops.map((s) => s.iteration).join('.')}=${String(r.output?.['text'])}`),
      ).toEqual(['0.0=a1', '0.1=a2', '1.0=b1', '1.1=b2'])
      expect(view.nodes['inner']?.iterations?.map((r) => r.iteration)).toEqual([0, 1])
    }
  })
})

describe('stored run events of older records', () => {
  it('reads a loop body event saved with path + iteration as nesting', () => {
    const old = { type: 'nodeFinish', runId: 'r', at: 1, nodeId: 't', path: ['each'], iteration: 2 }
    expect(upgradeLegacyPlace(old)).toEqual({
      type: 'nodeFinish',
      runId: 'r',
      at: 1,
      nodeId: 't',
      nesting: [{ nodeId: 'each', kind: 'loop', iteration: 2 }],
    })
  })

  it('reads a sub-flow event saved with path alone as a sub-flow nesting', () => {
    const old = { type: 'nodeStart', runId: 'r', at: 1, nodeId: 'q', inputs: {}, path: ['call', 'deeper'] }
    const [event] = parseStoredEvents([old])
    expect(event).toMatchObject({
      path: ['call', 'deeper'],
      nesting: [
        { nodeId: 'call', kind: 'subflow' },
        { nodeId: 'deeper', kind: 'subflow' },
      ],
    })
  })

  it('keeps a loop body event’s place when a past run is replayed (iteration was dropped before)', () => {
    const base = { runId: 'r', at: 1 }
    const stored = [
      { ...base, type: 'runStart', flowId: 'f', nodeIds: ['each'] },
      { ...base, type: 'nodeStart', nodeId: 'each', inputs: {} },
      { ...base, type: 'nodeStart', nodeId: 't', inputs: {}, path: ['each'], iteration: 1 },
      {
        ...base,
        type: 'nodeFinish',
        nodeId: 't',
        status: 'success',
        output: { text: 'b' },
        durationMs: 1,
        path: ['each'],
        iteration: 1,
      },
    ]
    const view = replayRunEvents(parseStoredEvents(stored))
    expect(view.nodes['t']?.iterations?.map((r) => [r.iteration, r.output?.['text']])).toEqual([[1, 'b']])
  })
})
