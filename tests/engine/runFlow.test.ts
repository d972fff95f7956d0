import { describe, expect, it } from 'vitest'
import {
  defineNodeType,
  FlowError,
  runFlow,
  preflight,
  runNode,
  type NodeRegistry,
  type RunEvent,
} from '../../src/engine/run.ts'
import { collect, flow, ofType, testContext } from '../support/flowBuilders.ts'
import type { ManualClock } from '../support/manualClock.ts'
import { testRegistry } from './testTypes.ts'

/** Starts a run in the background; events land in `events` as they are yielded. */
function start(iterable: AsyncIterable<RunEvent>) {
  const events: RunEvent[] = []
  const done = (async () => {
    for await (const event of iterable) events.push(event)
  })()
  return { events, done }
}

/** Runs to the end, moving the manual clock as far as the nodes sleep. */
async function runToEnd(iterable: AsyncIterable<RunEvent>, clock: ManualClock): Promise<RunEvent[]> {
  const run = start(iterable)
  await clock.runAll()
  await run.done
  return run.events
}

function startTimes(events: RunEvent[], clock: ManualClock, t0: number): Record<string, number> {
  void clock
  return Object.fromEntries(ofType(events, 'nodeStart').map((e) => [e.nodeId, e.at - t0]))
}

describe('runFlow scheduling', () => {
  it('starts a node as soon as its own upstream finished, not when the whole wave did', async () => {
    // a(10) -> b(10) -> d ; c(100) -> d. In waves, b would wait for c; here it starts at t=10.
    const doc = flow()
      .node('a', 'wait', { ms: 10 })
      .node('b', 'wait', { ms: 10 })
      .node('c', 'wait', { ms: 100 })
      .node('d', 'wait', { ms: 5 })
      .chain('a', 'b', 'd')
      .edge('c', 'd')
      .build()
    const { ctx, clock } = testContext()
    const t0 = clock.now()
    const run = start(runFlow(doc, testRegistry, ctx))
    await clock.advance(10)
    expect(startTimes(run.events, clock, t0)).toEqual({ a: 0, c: 0, b: 10 })
    await clock.advance(10)
    expect(ofType(run.events, 'nodeFinish').map((e) => e.nodeId)).toEqual(['a', 'b'])
    expect(ofType(run.events, 'nodeStart').map((e) => e.nodeId)).not.toContain('d')
    await clock.advance(80)
    expect(startTimes(run.events, clock, t0)['d']).toBe(100)
    await clock.runAll()
    await run.done
    const finish = run.events.at(-1)
    expect(finish).toMatchObject({ type: 'runFinish', status: 'success', durationMs: 105 })
  })

  it('never runs more nodes at once than the concurrency cap', async () => {
    const builder = flow()
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) builder.node(id, 'wait', { ms: 100 })
    const { ctx, clock } = testContext({ concurrency: 2 })
    const t0 = clock.now()
    const run = start(runFlow(builder.build(), testRegistry, ctx))
    await clock.runAll()
    await run.done
    expect(Object.values(startTimes(run.events, clock, t0)).sort((x, y) => x - y)).toEqual([
      0, 0, 100, 100, 200,
    ])
    expect(run.events.at(-1)).toMatchObject({ type: 'runFinish', durationMs: 300 })
  })

  it('skips only the descendants of a failed node and reports the run as an error', async () => {
    const doc = flow()
      .node('root', 'wait', { ms: 1 })
      .node('bad', 'fail', { ms: 5, message: 'server said no' }, 'Fetch prices')
      .node('after', 'wait')
      .node('later', 'wait')
      .node('good', 'wait', { ms: 50, value: 'fine' })
      .node('join', 'wait')
      .chain('root', 'bad', 'after', 'later')
      .chain('root', 'good')
      .edge('good', 'join')
      .edge('after', 'join')
      .build()
    const { ctx, clock } = testContext()
    const run = start(runFlow(doc, testRegistry, ctx))
    await clock.runAll()
    await run.done
    expect(ofType(run.events, 'nodeError')).toEqual([
      expect.objectContaining({ nodeId: 'bad', code: 'HTTP_STATUS', message: 'server said no' }),
    ])
    const skipped = ofType(run.events, 'nodeSkipped')
    expect(skipped.map((e) => e.nodeId)).toEqual(['after', 'later', 'join'])
    expect(skipped[0]).toMatchObject({ reason: 'upstreamFailed', failedNodeId: 'bad' })
    expect(skipped[0]?.message).toContain('"Fetch prices" failed')
    expect(ofType(run.events, 'nodeFinish').map((e) => e.nodeId)).toEqual(['root', 'good'])
    expect(run.events.at(-1)).toMatchObject({ type: 'runFinish', status: 'error' })
  })

  it('stops at once on abort, even when a node ignores the signal', async () => {
    const doc = flow()
      .node('stuck', 'hang')
      .node('slow', 'wait', { ms: 1000 })
      .node('next', 'wait')
      .edge('slow', 'next')
      .build()
    const { ctx, clock, controller } = testContext()
    const run = start(runFlow(doc, testRegistry, ctx))
    await clock.advance(50)
    controller.abort()
    await run.done
    expect(ofType(run.events, 'nodeError').map((e) => [e.nodeId, e.code, e.durationMs])).toEqual([
      ['stuck', 'CANCELLED', 50],
      ['slow', 'CANCELLED', 50],
    ])
    expect(ofType(run.events, 'nodeSkipped')).toEqual([
      expect.objectContaining({ nodeId: 'next', reason: 'stopped', message: 'The run was stopped.' }),
    ])
    expect(run.events.at(-1)).toMatchObject({ type: 'runFinish', status: 'cancelled' })
    // The sleeping node was told to stop too: nothing is left waiting on the clock.
    expect(clock.pendingSleeps).toBe(0)
  })

  it('settles immediately when the signal was aborted before the run began', async () => {
    const { ctx, controller } = testContext()
    controller.abort()
    const events = await collect(runFlow(flow().node('a', 'wait').build(), testRegistry, ctx))
    expect(events.map((e) => e.type)).toEqual(['runStart', 'nodeSkipped', 'runFinish'])
    expect(events.at(-1)).toMatchObject({ status: 'cancelled' })
  })

  it('aborts in-flight work when the consumer stops iterating', async () => {
    const { ctx, clock } = testContext()
    for await (const event of runFlow(flow().node('a', 'wait', { ms: 500 }).build(), testRegistry, ctx)) {
      if (event.type === 'nodeChunk') break
    }
    expect(clock.pendingSleeps).toBe(0)
  })

  it('streams events while nodes are still running', async () => {
    const { ctx, clock } = testContext()
    const iterator = runFlow(flow().node('a', 'wait', { ms: 500 }).build(), testRegistry, ctx)[
      Symbol.asyncIterator
    ]()
    const first = [await iterator.next(), await iterator.next(), await iterator.next()].map(
      (r) => r.value?.type,
    )
    expect(first).toEqual(['runStart', 'nodeStart', 'nodeChunk'])
    expect(clock.pendingSleeps).toBe(1)
    await clock.runAll()
    const rest: string[] = []
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value.type)
    expect(rest).toEqual(['nodeFinish', 'runFinish'])
  })
})

describe('runFlow events and data', () => {
  it('stamps every event with the run id and clock time, as plain JSON', async () => {
    const doc = flow()
      .node('a', 'wait', { ms: 20, value: { items: ['x', 'y'] } })
      .node('t', 'text', { template: 'first={{a.value.items[0]}} all={{a.value}}' })
      .edge('a', 't')
      .build()
    const { ctx, clock } = testContext({ runId: 'run_42' })
    const t0 = clock.now()
    const run = start(runFlow(doc, testRegistry, ctx))
    await clock.runAll()
    await run.done
    expect(run.events.map((e) => e.type)).toEqual([
      'runStart',
      'nodeStart',
      'nodeChunk',
      'nodeFinish',
      'nodeStart',
      'nodeFinish',
      'runFinish',
    ])
    for (const event of run.events) {
      expect(event.runId).toBe('run_42')
      expect(JSON.parse(JSON.stringify(event))).toEqual(event)
    }
    expect(run.events[0]).toEqual({
      type: 'runStart',
      runId: 'run_42',
      at: t0,
      flowId: 'flow_test',
      nodeIds: ['a', 't'],
    })
    const startT = ofType(run.events, 'nodeStart')[1]
    expect(startT).toMatchObject({
      nodeId: 't',
      at: t0 + 20,
      inputs: { a: { value: { items: ['x', 'y'] }, startedAt: t0 } },
    })
    const finishT = ofType(run.events, 'nodeFinish')[1]
    expect(finishT?.output).toEqual({ text: 'first=x all={"items":["x","y"]}' })
    expect(run.events.at(-1)).toMatchObject({
      usage: { prompt: 1, completion: 2, total: 3, estimated: false },
    })
  })

  it('lets templates read ancestors only, never a node that merely ran earlier', async () => {
    const doc = flow()
      .node('side', 'wait', { value: 'secret' })
      .node('a', 'wait', { ms: 10, value: 'mine' })
      .node('t', 'text', { template: '[{{a.value}}][{{side.value}}][{{side.value | "none"}}]' })
      .edge('a', 't')
      .build()
    const { ctx, clock } = testContext()
    const run = start(runFlow(doc, testRegistry, ctx))
    await clock.runAll()
    await run.done
    expect(ofType(run.events, 'nodeFinish').find((e) => e.nodeId === 't')?.output).toEqual({
      text: '[mine][][none]',
    })
  })

  it('fails a node with invalid or missing config and skips what depends on it', async () => {
    const doc = flow()
      .node('broken', 'text', { template: 42 })
      .node('empty', 'text', { template: '' })
      .node('child', 'wait')
      .edge('broken', 'child')
      .build()
    const { ctx } = testContext()
    const events = await collect(runFlow(doc, testRegistry, ctx))
    expect(ofType(events, 'nodeError').map((e) => [e.nodeId, e.code])).toEqual([
      ['broken', 'INVALID_CONFIG'],
      ['empty', 'MISSING_CONFIG'],
    ])
    expect(ofType(events, 'nodeError')[0]?.message).toContain('template: Expected a string')
    expect(ofType(events, 'nodeSkipped').map((e) => e.nodeId)).toEqual(['child'])
  })

  it('ignores notes and the edges that touch them', async () => {
    const doc = flow().node('n', 'note').node('a', 'wait').edge('n', 'a').build()
    const { ctx, clock } = testContext()
    const events = await runToEnd(runFlow(doc, testRegistry, ctx), clock)
    expect(events[0]).toMatchObject({ type: 'runStart', nodeIds: ['a'] })
    expect(events.at(-1)).toMatchObject({ status: 'success' })
  })

  it('refuses to start a flow with a cycle, naming it', async () => {
    const doc = flow().node('a', 'wait').node('b', 'wait').node('c', 'wait').chain('a', 'b', 'c', 'a').build()
    const { ctx } = testContext()
    const error = await collect(runFlow(doc, testRegistry, ctx)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FlowError)
    expect(error).toMatchObject({ code: 'CYCLE', message: expect.stringContaining('a → b → c → a') })
  })

  it('refuses unknown and unsupported node types before anything runs', async () => {
    const { ctx } = testContext()
    const unknown = await collect(runFlow(flow().node('x', 'teleport').build(), testRegistry, ctx)).catch(
      (e: unknown) => e,
    )
    expect(unknown).toMatchObject({ code: 'UNKNOWN_NODE_TYPE', nodeId: 'x' })
    const registry: NodeRegistry = new Map([
      ...testRegistry,
      ['unsupported', { ...testRegistry.get('note')!, type: 'unsupported' }],
    ])
    const doc = flow().node('u', 'unsupported', { originalType: 'condition', original: {} }).build()
    const refused = await collect(runFlow(doc, registry, ctx)).catch((e: unknown) => e)
    expect(refused).toMatchObject({
      code: 'UNSUPPORTED_NODE',
      message: expect.stringContaining('"condition"'),
    })
  })
})

describe('runNode for agent tools', () => {
  const caller = defineNodeType<Record<string, unknown>>({
    type: 'caller',
    parseConfig: (raw) => ({ ok: true, value: raw as Record<string, unknown> }),
    toolTargets: () => ['tool'],
    async execute({ runNode, signal }) {
      const observation = await runNode('tool', { args: { q: 'weather' } }, signal)
      return { output: { observation } }
    },
  })
  const registry: NodeRegistry = new Map([...testRegistry, ['caller', caller]])

  it('runs another node with the given inputs visible to its templates and counts its usage', async () => {
    const doc = flow()
      .node('src', 'wait', { value: 'Paris' })
      .node('tool', 'text', { template: '{{args.q}} in {{src.value}}' })
      .node('agent', 'caller')
      .edge('src', 'tool')
      .edge('src', 'agent')
      .build()
    const { ctx, clock } = testContext()
    const events = await runToEnd(runFlow(doc, registry, ctx), clock)
    const agent = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'agent')
    expect(agent?.output).toEqual({ observation: { text: 'weather in Paris' } })
    // The tool node ran once in the flow and once as a tool; both usages count.
    expect(events.at(-1)).toMatchObject({ usage: { total: 6 } })
  })

  it('keeps an unwired tool node out of the run; it runs only when called, seeing {{args}}', async () => {
    const doc = flow()
      .node('tool', 'text', { template: 'looked up {{args.q}}' })
      .node('agent', 'caller')
      .build()
    const { ctx, clock } = testContext()
    const events = await runToEnd(runFlow(doc, registry, ctx), clock)
    expect(events[0]).toMatchObject({ type: 'runStart', nodeIds: ['agent'] })
    expect(ofType(events, 'nodeStart').map((e) => e.nodeId)).toEqual(['agent'])
    expect(ofType(events, 'nodeFinish')[0]?.output).toEqual({ observation: { text: 'looked up weather' } })
    expect(preflight(doc, registry)).toEqual([])
    const plain = flow().node('t', 'text', { template: '{{args.q}}' }).build()
    expect(preflight(plain, registry).map((p) => p.code)).toEqual(['REF_UNKNOWN_NODE'])
  })

  it('rejects a tool that names a node the flow does not have', async () => {
    const doc = flow().node('agent', 'caller').build()
    const { ctx } = testContext()
    const events = await collect(runFlow(doc, registry, ctx))
    expect(ofType(events, 'nodeError')[0]).toMatchObject({ code: 'TOOL_NOT_FOUND' })
  })
})

describe('runNode on its own', () => {
  it('runs one node with the given upstream outputs', async () => {
    const doc = flow()
      .node('a', 'wait')
      .node('t', 'text', { template: '{{a.value}} and {{b}}' })
      .edge('a', 't')
      .build()
    const { ctx } = testContext()
    const result = await runNode(doc, testRegistry, ctx, 't', { a: { value: 'given' }, b: 'wrapped' })
    expect(result.output).toEqual({ text: 'given and {"value":"wrapped"}' })
    await expect(runNode(doc, testRegistry, ctx, 'ghost', {})).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
    })
  })
})
