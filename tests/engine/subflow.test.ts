import { describe, expect, it } from 'vitest'
import { SUBFLOW_MAX_DEPTH } from '../../src/defaults.ts'
import {
  preflight,
  runFlow,
  type FlowDocument,
  type NodeRegistry,
  type RunEvent,
} from '../../src/engine/run.ts'
import { createFlowLookup } from '../../src/nodes/flowLookup.ts'
import { engineRegistry, nodeCatalog } from '../../src/nodes/registry.ts'
import { collect, flow, ofType, testContext } from '../support/flowBuilders.ts'
import { testRegistry } from './testTypes.ts'

/** The app's node types plus the engine tests' `wait`, `fail` and `hang`. */
const registry: NodeRegistry = new Map([...engineRegistry, ...testRegistry])
const lookup = (...docs: FlowDocument[]) => createFlowLookup(docs, nodeCatalog)

/** `greet`: Input `topic` (and `secret`) -> Template -> two Output nodes. */
const greet = flow()
  .meta('greet', 'Greeter')
  .node('in', 'input', { values: { topic: 'default', secret: 'none' } })
  .node('t', 'template', { template: 'Hello {{in.topic}} ({{in.secret}})' })
  .node('o1', 'output', { values: { greeting: '{{t.text}}' } })
  .node('o2', 'output', { values: { count: '2' } })
  .chain('in', 't', 'o1')
  .edge('in', 'o2')
  .build()

/** A flow whose `call` node runs `target` with `inputs`, and an Output reading `{{call.<field>}}`. */
function caller(id: string, target: string, field = 'greeting', inputs: Record<string, string> = {}) {
  return flow()
    .meta(id, id)
    .node('q', 'input', { values: { topic: 'tea' } })
    .node('call', 'subflow', { flow: target, inputs: { topic: '{{q.topic}}', ...inputs } })
    .node('out', 'output', { values: { result: `{{call.${field}}}` } })
    .chain('q', 'call', 'out')
    .build()
}

describe('subflow node', () => {
  it('sets the called flow’s Input keys and returns its Output values merged by key', async () => {
    const { ctx } = testContext({ flows: lookup(greet), inputs: { secret: 'leaked' } })
    const events = await collect(runFlow(caller('main', 'greet'), registry, ctx))
    const top = ofType(events, 'nodeFinish').filter((e) => e.path === undefined)
    expect(top.find((e) => e.nodeId === 'call')?.output).toEqual({ greeting: 'Hello tea (none)', count: '2' })
    // The caller's own run inputs do not reach the sub-flow: only the mapped keys do.
    expect(top.find((e) => e.nodeId === 'out')?.output).toEqual({ result: 'Hello tea (none)' })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('passes the sub-flow’s node events on with the path of calling nodes, and no run events', async () => {
    const middle = caller('middle', 'greet')
    // `outer` calls `middle` through node `call`; `middle` calls `greet` through its own `call`.
    const outer = caller('outer', 'middle', 'result')
    const { ctx } = testContext({ flows: lookup(greet, middle) })
    const events = await collect(runFlow(outer, registry, ctx))
    expect(ofType(events, 'runStart')).toHaveLength(1)
    expect(ofType(events, 'runFinish')).toHaveLength(1)
    const finished = (path: string[] | undefined) =>
      ofType(events, 'nodeFinish')
        .filter((e) => JSON.stringify(e.path) === JSON.stringify(path))
        .map((e) => e.nodeId)
    expect(finished(undefined)).toEqual(['q', 'call', 'out'])
    expect(finished(['call'])).toEqual(['q', 'call', 'out'])
    expect(finished(['call', 'call'])).toEqual(expect.arrayContaining(['in', 't', 'o1', 'o2']))
    const inner = ofType(events, 'nodeStart').find((e) => e.nodeId === 't')
    expect(inner).toMatchObject({ path: ['call', 'call'], runId: 'run_test' })
    const result = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'out' && e.path === undefined)
    expect(result?.output).toEqual({ result: 'Hello tea (none)' })
  })

  it('adds the sub-flow’s usage to the calling node and the run', async () => {
    const counted = flow()
      .meta('counted')
      .node('x', 'text', { template: 'hi' })
      .node('o', 'output', { values: { text: '{{x.text}}' } })
      .edge('x', 'o')
      .build()
    const { ctx } = testContext({ flows: lookup(counted) })
    const events = await collect(runFlow(caller('main', 'counted', 'text'), registry, ctx))
    const call = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'call' && !e.path)
    expect(call?.usage?.total).toBe(3)
    expect(ofType(events, 'runFinish')[0]?.usage.total).toBe(3)
  })

  it('fails the calling node with SUBFLOW_FAILED naming the node that failed inside', async () => {
    const broken = flow()
      .meta('broken', 'Broken')
      .node('f', 'fail', { message: 'no luck' })
      .node('o', 'output', { values: { greeting: 'x' } })
      .edge('f', 'o')
      .build()
    const { ctx, clock } = testContext({ flows: lookup(broken) })
    const running = collect(runFlow(caller('main', 'broken'), registry, ctx))
    await clock.runAll()
    const events = await running
    const error = ofType(events, 'nodeError').find((e) => e.path === undefined)
    expect(error).toMatchObject({ nodeId: 'call', code: 'SUBFLOW_FAILED' })
    expect(error?.message).toContain('"Broken" failed at "f": no luck')
    expect(ofType(events, 'nodeError').find((e) => e.path !== undefined)).toMatchObject({ nodeId: 'f' })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'error' })
  })

  it('stops a sub-flow when the run is stopped, and passes nothing on after the run ended', async () => {
    const slow = flow()
      .meta('slow')
      .node('w', 'wait', { ms: 1000 })
      .node('o', 'output', { values: { greeting: '{{w.value}}' } })
      .edge('w', 'o')
      .build()
    const { ctx, clock, controller } = testContext({ flows: lookup(slow) })
    const events: RunEvent[] = []
    const done = (async () => {
      for await (const event of runFlow(caller('main', 'slow'), registry, ctx)) events.push(event)
    })()
    await clock.advance(10)
    expect(ofType(events, 'nodeStart').some((e) => e.nodeId === 'w' && e.path?.[0] === 'call')).toBe(true)
    controller.abort()
    await done
    const finish = events.findIndex((e) => e.type === 'runFinish')
    expect(events[finish]).toMatchObject({ status: 'cancelled' })
    expect(finish).toBe(events.length - 1)
    expect(ofType(events, 'nodeError').find((e) => e.nodeId === 'call')).toMatchObject({ code: 'CANCELLED' })
    // The sleeping node inside was told to give up: nothing is left waiting on the clock.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(clock.pendingSleeps).toBe(0)
  })
})

describe('subflow preflight', () => {
  it('reads the called flow’s Output keys as the node’s fields', () => {
    const problems = preflight(caller('main', 'greet', 'nope'), registry, { flows: lookup(greet) })
    const field = problems.find((p) => p.code === 'REF_UNKNOWN_FIELD')
    expect(field?.message).toContain('outputs greeting, count')
    expect(preflight(caller('main', 'greet'), registry, { flows: lookup(greet) })).toEqual([])
  })

  it('refuses a flow that is not there, and a node with no flow picked', () => {
    const problems = preflight(caller('main', 'gone'), registry, { flows: lookup(greet) })
    expect(problems).toEqual([expect.objectContaining({ code: 'SUBFLOW_NOT_FOUND', nodeId: 'call' })])
    const empty = preflight(caller('main', ''), registry, { flows: lookup(greet) })
    expect(empty.map((p) => p.code)).toEqual(['MISSING_CONFIG'])
  })

  it('refuses a circle of calls at preflight naming the chain, and at run time too', async () => {
    const a = caller('a', 'b')
    const b = caller('b', 'a')
    const problems = preflight(a, registry, { flows: lookup(a, b) })
    const circle = problems.find((p) => p.code === 'SUBFLOW_RECURSION')
    expect(circle?.message).toContain('a -> b -> a')
    expect(circle?.params['chain']).toBe('a -> b -> a')
    const self = preflight(caller('a', 'a'), registry, { flows: lookup(a) })
    expect(self.find((p) => p.code === 'SUBFLOW_RECURSION')?.params['chain']).toBe('a -> a')

    const { ctx } = testContext({ flows: lookup(a, b) })
    const events = await collect(runFlow(a, registry, ctx))
    const inner = ofType(events, 'nodeError').find((e) => e.code === 'SUBFLOW_RECURSION')
    expect(inner).toMatchObject({ nodeId: 'call', path: ['call'] })
    expect(inner?.message).toContain('a -> b -> a')
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'error' })
  })

  it(`runs sub-flows ${SUBFLOW_MAX_DEPTH} deep and refuses one level more`, async () => {
    // f0 calls f1, ..., f(n-1) calls greet: greet is n levels below f0.
    const chain = (levels: number) => {
      const docs = [greet]
      for (let i = levels - 1; i >= 0; i--) {
        const last = i === levels - 1
        docs.push(caller(`f${i}`, last ? 'greet' : `f${i + 1}`, last ? 'greeting' : 'result'))
      }
      return docs
    }
    const ok = chain(SUBFLOW_MAX_DEPTH)
    const top = ok.at(-1) as FlowDocument
    expect(preflight(top, registry, { flows: lookup(...ok) })).toEqual([])
    const { ctx } = testContext({ flows: lookup(...ok) })
    const events = await collect(runFlow(top, registry, ctx))
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })

    const deep = chain(SUBFLOW_MAX_DEPTH + 1)
    const deepTop = deep.at(-1) as FlowDocument
    const problems = preflight(deepTop, registry, { flows: lookup(...deep) })
    expect(problems).toEqual([expect.objectContaining({ code: 'SUBFLOW_TOO_DEEP', nodeId: 'call' })])
    expect(problems[0]?.message).toContain('f0 -> f1 -> f2 -> f3 -> f4 -> f5 -> greet')
    const run = testContext({ flows: lookup(...deep) })
    const deepEvents = await collect(runFlow(deepTop, registry, run.ctx))
    expect(ofType(deepEvents, 'nodeError').some((e) => e.code === 'SUBFLOW_TOO_DEEP')).toBe(true)
    expect(deepEvents.at(-1)).toMatchObject({ type: 'runFinish', status: 'error' })
  })

  it('reports a called flow that cannot run on the calling node', () => {
    const broken = flow().meta('broken').node('x', 'text', { template: '' }).build()
    const problems = preflight(caller('main', 'broken'), registry, { flows: lookup(broken) })
    const errors = problems.filter((p) => p.severity === 'error')
    expect(errors).toEqual([expect.objectContaining({ code: 'SUBFLOW_FAILED', nodeId: 'call' })])
    expect(errors[0]?.message).toContain('"x": Write a template.')
  })
})
