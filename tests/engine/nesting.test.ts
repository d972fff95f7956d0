import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { ofType } from '../support/flowBuilders.ts'
import {
  caller,
  failer,
  leaf,
  loopCaller,
  loopInLoop,
  looper,
  placeText,
  runNested,
} from '../support/nestedFlows.ts'

/** `nodeId @ place (path)` of every node event of `type`, in order. */
function places(events: RunEvent[], type: RunEvent['type']): string[] {
  return events
    .filter((e) => e.type === type && 'nodeId' in e)
    .map((e) => `${'nodeId' in e ? e.nodeId : ''} @ ${placeText(e)} (${(e.path ?? []).join(',')})`)
}

describe('where an event happened: nesting and path', () => {
  it('a sub-flow inside a loop body: each iteration’s called nodes under the loop, then the call', async () => {
    const events = await runNested(loopCaller('leaf'), leaf)
    expect(places(events, 'nodeFinish')).toEqual([
      'in @ outer#0/call (call)',
      't @ outer#0/call (call)',
      'out @ outer#0/call (call)',
      'call @ outer#0 ()',
      'in @ outer#1/call (call)',
      't @ outer#1/call (call)',
      'out @ outer#1/call (call)',
      'call @ outer#1 ()',
      'outer @  ()',
      'out @  ()',
    ])
    const loop = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'outer' && !e.nesting)
    expect(loop?.output).toMatchObject({ results: [{ text: '[a]' }, { text: '[b]' }], count: 2 })
    // `path` is what the contract names: the calling sub-flow nodes only, never a loop.
    expect(events.every((e) => (e.path ?? []).every((id) => id === 'call'))).toBe(true)
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('a loop inside a sub-flow: its body events under the call, then the loop with the iteration', async () => {
    const events = await runNested(caller('main', 'looper', 'n'), looper)
    expect(places(events, 'nodeFinish').filter((p) => p.startsWith('fmt'))).toEqual([
      'fmt @ call/each#0 (call)',
      'fmt @ call/each#1 (call)',
    ])
    const inner = ofType(events, 'nodeFinish').filter((e) => e.nodeId === 'fmt')
    expect(inner.map((e) => e.output['text'])).toEqual(['tea-x', 'tea-y'])
    // The called flow's own `out` is not the caller's `out`.
    expect(
      ofType(events, 'nodeFinish')
        .filter((e) => e.nodeId === 'out')
        .map(placeText),
    ).toEqual(['call', ''])
    expect(ofType(events, 'nodeFinish').find((e) => e.nodeId === 'out' && !e.nesting)?.output).toEqual({
      result: '2',
    })
  })

  it('a loop inside a sub-flow inside a loop body nests all three, iterations of both loops kept', async () => {
    const events = await runNested(loopCaller('looper'), looper)
    expect(places(events, 'nodeFinish').filter((p) => p.startsWith('fmt'))).toEqual([
      'fmt @ outer#0/call/each#0 (call)',
      'fmt @ outer#0/call/each#1 (call)',
      'fmt @ outer#1/call/each#0 (call)',
      'fmt @ outer#1/call/each#1 (call)',
    ])
    expect(
      ofType(events, 'nodeFinish')
        .filter((e) => e.nodeId === 'fmt')
        .map((e) => e.output['text']),
    ).toEqual(['a-x', 'a-y', 'b-x', 'b-y'])
  })

  it('two levels of sub-flow: path and nesting name both calling nodes, outermost first', async () => {
    const events = await runNested(
      caller('outer', 'middle', 'result'),
      caller('middle', 'leaf', 'text'),
      leaf,
    )
    expect(places(events, 'nodeFinish')).toEqual([
      'q @  ()',
      'q @ call (call)',
      'in @ call/call (call,call)',
      't @ call/call (call,call)',
      'out @ call/call (call,call)',
      'call @ call (call)',
      'out @ call (call)',
      'call @  ()',
      'out @  ()',
    ])
    expect(ofType(events, 'nodeFinish').at(-1)?.output).toEqual({ result: '[tea]' })
    expect(ofType(events, 'runStart')).toHaveLength(1)
  })

  it('a loop in a loop body: each event names both loops with their iterations', async () => {
    const events = await runNested(loopInLoop)
    const t = ofType(events, 'nodeFinish').filter((e) => e.nodeId === 't')
    expect(t.map((e) => `${placeText(e)}=${String(e.output['text'])}`)).toEqual([
      'outer#0/inner#0=a1',
      'outer#0/inner#1=a2',
      'outer#1/inner#0=b1',
      'outer#1/inner#1=b2',
    ])
    expect(t.every((e) => e.path === undefined)).toBe(true)
  })

  it('a failure in a loop body inside a sub-flow is placed there, and the call still finishes', async () => {
    const events = await runNested(caller('main', 'failer', 'n'), failer)
    expect(places(events, 'nodeError')).toEqual(['f @ call/each#0 (call)'])
    expect(ofType(events, 'nodeFinish').find((e) => e.nodeId === 'call')?.output).toEqual({ n: '1' })
  })
})
