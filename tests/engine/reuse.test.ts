import { describe, expect, it } from 'vitest'
import {
  defineNodeType,
  planFromHere,
  planRun,
  runFlow,
  type FlowDocument,
  type NodeFinishEvent,
  type NodeRegistry,
  type ParseResult,
  type PreviousRun,
  type ReusedOutput,
  type RunEvent,
  type RunOptions,
} from '../../src/engine/run.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

type Cfg = Record<string, unknown>
const anyObject = (raw: unknown): ParseResult<Cfg> => ({ ok: true, value: (raw ?? {}) as Cfg })
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [])

/** `step`: renders its template (so it reads upstream outputs) and costs 3 tokens. */
const stepType = defineNodeType<Cfg>({
  type: 'step',
  parseConfig: anyObject,
  varies: (config) => config['sample'] === true,
  execute: async ({ config, resolve, node }) => ({
    output: { text: resolve(String(config['template'] ?? node.id), 'template') },
    usage: { prompt: 1, completion: 2, total: 3, estimated: false },
  }),
})
const routeType = defineNodeType<Cfg>({
  type: 'route',
  parseConfig: anyObject,
  ports: { inputs: [{ id: 'in' }], outputs: [{ id: 'a' }, { id: 'b' }] },
  execute: async ({ node, config }) => ({ output: { from: node.id }, notTaken: list(config['skip']) }),
})
const boxType = defineNodeType<Cfg>({
  type: 'box',
  parseConfig: anyObject,
  container: true,
  execute: async () => ({ output: { results: [] } }),
})
const failType = defineNodeType<Cfg>({
  type: 'fail',
  parseConfig: anyObject,
  execute: async () => {
    throw new Error('boom')
  },
})
const registry: NodeRegistry = new Map([
  ['step', stepType],
  ['route', routeType],
  ['box', boxType],
  ['fail', failType],
])

async function run(doc: FlowDocument, options: RunOptions = {}, runId = 'run_test'): Promise<RunEvent[]> {
  return collect(runFlow(doc, registry, testContext({ runId }).ctx, options))
}
const started = (events: RunEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'nodeStart' ? [e.nodeId] : []))
const finishes = (events: RunEvent[]): NodeFinishEvent[] =>
  events.filter((e): e is NodeFinishEvent => e.type === 'nodeFinish')
const cached = (events: RunEvent[]): Record<string, string> =>
  Object.fromEntries(finishes(events).flatMap((e) => (e.cached ? [[e.nodeId, e.cached.reason]] : [])))

function previousOf(events: RunEvent[], runId = 'run_prev'): PreviousRun {
  const results = new Map(finishes(events).map((e) => [e.nodeId, { output: e.output, notTaken: e.notTaken }]))
  return { runId, results }
}

/** Plans a run from `target` over the last run's events and runs it. */
async function fromHere(
  doc: FlowDocument,
  last: RunEvent[],
  target: string,
  mode: 'fromHere' | 'node' = 'fromHere',
) {
  const plan = planFromHere(doc, planRun(doc, registry).graph, target, previousOf(last), mode)
  return { plan, events: await run(doc, plan, 'run_next') }
}

describe('run from here: which nodes start', () => {
  const chain = () =>
    flow()
      .node('a', 'step')
      .node('b', 'step', { template: 'b<{{a.text}}>' })
      .node('c', 'step', { template: 'c<{{b.text}}>' })
      .node('d', 'step', { template: 'd<{{c.text}}>' })
      .chain('a', 'b', 'c', 'd')
      .build()

  it('in a chain starts the node and what is below it; the rest is reused at 0 tokens', async () => {
    const doc = chain()
    const first = await run(doc)
    doc.nodes[2]!.data.config = { template: 'C2<{{b.text}}>' }
    const { events } = await fromHere(doc, first, 'c')
    expect(started(events)).toEqual(['c', 'd'])
    expect(cached(events)).toEqual({ a: 'reused', b: 'reused' })
    const reusedB = finishes(events).find((e) => e.nodeId === 'b')
    expect(reusedB).toMatchObject({ cached: { fromRunId: 'run_prev' }, durationMs: 0 })
    expect(reusedB?.usage).toBeUndefined()
    expect(finishes(events).find((e) => e.nodeId === 'd')?.output).toEqual({ text: 'd<C2<b<a>>>' })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success', usage: { total: 6 } })
  })

  it('in a diamond starts one side and the join; the other side is reused', async () => {
    const doc = flow()
      .node('a', 'step')
      .node('b', 'step')
      .node('c', 'step')
      .node('d', 'step', { template: '{{b.text}}+{{c.text}}' })
      .edge('a', 'b')
      .edge('a', 'c')
      .edge('b', 'd')
      .edge('c', 'd')
      .build()
    const first = await run(doc)
    const { events } = await fromHere(doc, first, 'b')
    expect(started(events)).toEqual(['b', 'd'])
    expect(cached(events)).toEqual({ a: 'reused', c: 'reused' })
  })

  it('under a condition keeps the branch it did not take not taken', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['b'] })
      .node('x', 'step')
      .node('y', 'step')
      .node('z', 'step')
      .build()
    doc.edges.push(
      { id: 'e1', source: 'r', sourceHandle: 'a', target: 'x', targetHandle: 'in' },
      { id: 'e2', source: 'r', sourceHandle: 'b', target: 'y', targetHandle: 'in' },
      { id: 'e3', source: 'x', sourceHandle: 'out', target: 'z', targetHandle: 'in' },
    )
    const first = await run(doc)
    expect(finishes(first).find((e) => e.nodeId === 'r')?.notTaken).toEqual(['b'])
    const { events } = await fromHere(doc, first, 'x')
    expect(started(events)).toEqual(['x', 'z'])
    expect(cached(events)).toEqual({ r: 'reused' })
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'nodeSkipped', nodeId: 'y', reason: 'notTaken' }),
    )
  })

  it('from a node inside a loop body starts the loop (the body runs inside it) and what follows', async () => {
    const doc = flow()
      .node('a', 'step')
      .node('each', 'box')
      .node('inner', 'step')
      .node('after', 'step')
      .build()
    doc.nodes[2]!.parentId = 'each'
    doc.edges.push({ id: 'e1', source: 'a', target: 'each' }, { id: 'e2', source: 'each', target: 'after' })
    const first = await run(doc)
    const { plan, events } = await fromHere(doc, first, 'inner')
    expect(plan.target).toBe('each')
    expect(started(events)).toEqual(['each', 'after'])
    expect(cached(events)).toEqual({ a: 'reused' })
  })

  it('runs an upstream node that has no result in the last run (it failed there)', async () => {
    const doc = flow().node('a', 'fail').node('b', 'step').node('c', 'step').chain('a', 'b', 'c').build()
    const first = await run(doc)
    doc.nodes[0]!.type = 'step'
    const { events } = await fromHere(doc, first, 'c')
    expect(started(events)).toEqual(['a', 'b', 'c'])
  })

  it('"run this node" runs it alone on the reused inputs and leaves what depends on it', async () => {
    const doc = chain()
    const first = await run(doc)
    const { events } = await fromHere(doc, first, 'b', 'node')
    expect(started(events)).toEqual(['b'])
    expect(cached(events)).toEqual({ a: 'reused' })
    expect(events.filter((e) => e.type === 'nodeSkipped').map((e) => [e.nodeId, e.reason])).toEqual([
      ['c', 'notRequested'],
      ['d', 'notRequested'],
    ])
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })
})

describe('pinned outputs', () => {
  it('a pinned node is not run; its pin feeds the nodes below it', async () => {
    const doc = flow()
      .node('a', 'step')
      .node('b', 'step')
      .node('c', 'step', { template: 'got {{b.text}}' })
      .chain('a', 'b', 'c')
      .build()
    doc.nodes[1]!.pinned = { output: { text: 'PINNED' } }
    const events = await run(doc)
    expect(started(events)).toEqual(['a', 'c'])
    expect(cached(events)).toEqual({ b: 'pinned' })
    expect(finishes(events).at(-1)?.output).toEqual({ text: 'got PINNED' })
  })

  it('the node a person asks to run runs even when pinned; pins below it hold', async () => {
    const doc = flow().node('a', 'step').node('b', 'step').node('c', 'step').chain('a', 'b', 'c').build()
    doc.nodes[1]!.pinned = { output: { text: 'PB' } }
    doc.nodes[2]!.pinned = { output: { text: 'PC' } }
    const first = await run(doc)
    const { events } = await fromHere(doc, first, 'b')
    expect(started(events)).toEqual(['b'])
    expect(cached(events)).toEqual({ a: 'reused', c: 'pinned' })
  })
})

describe('reuse unchanged results (cache keys)', () => {
  const diamond = () =>
    flow()
      .node('a', 'step')
      .node('b', 'step', { template: 'b{{a.text}}' })
      .node('c', 'step', { template: 'c{{a.text}}' })
      .node('d', 'step', { template: '{{b.text}}{{c.text}}' })
      .node('e', 'step', { template: 'e{{c.text}}' })
      .edge('a', 'b')
      .edge('a', 'c')
      .edge('b', 'd')
      .edge('c', 'd')
      .edge('c', 'e')
      .build()

  /** A cache over the nodeFinish events of earlier runs. */
  function cacheOf(events: RunEvent[], runId: string, includeVarying = false): RunOptions['cache'] {
    const byKey = new Map<string, ReusedOutput>()
    for (const e of finishes(events))
      if (e.cacheKey) byKey.set(e.cacheKey, { output: e.output, reason: 'unchanged', fromRunId: runId })
    return { lookup: (key) => byKey.get(key), includeVarying }
  }

  it('an unchanged flow reuses every node, naming the run it came from', async () => {
    const doc = diamond()
    const first = await run(doc, { cache: { lookup: () => undefined } })
    expect(finishes(first).every((e) => typeof e.cacheKey === 'string')).toBe(true)
    const second = await run(doc, { cache: cacheOf(first, 'run_1') })
    expect(started(second)).toEqual([])
    expect(
      finishes(second).every((e) => e.cached?.reason === 'unchanged' && e.cached.fromRunId === 'run_1'),
    ).toBe(true)
  })

  it('a changed node invalidates itself and its descendants only', async () => {
    const doc = diamond()
    const first = await run(doc, { cache: { lookup: () => undefined } })
    doc.nodes[1]!.data.config = { template: 'B changed {{a.text}}' }
    const second = await run(doc, { cache: cacheOf(first, 'run_1') })
    expect(started(second)).toEqual(['b', 'd'])
    expect(cached(second)).toEqual({ a: 'unchanged', c: 'unchanged', e: 'unchanged' })
    expect(finishes(second).find((e) => e.nodeId === 'd')?.output).toEqual({ text: 'B changed aca' })
  })

  it('a changed upstream output (a new pin) changes the keys below it', async () => {
    const doc = diamond()
    const first = await run(doc, { cache: { lookup: () => undefined } })
    doc.nodes[2]!.pinned = { output: { text: 'other' } }
    const second = await run(doc, { cache: cacheOf(first, 'run_1') })
    expect(started(second).sort()).toEqual(['d', 'e'])
    expect(cached(second)).toEqual({ a: 'unchanged', b: 'unchanged', c: 'pinned' })
  })

  it('a node whose results vary (temperature > 0) is reused only when asked', async () => {
    const doc = flow().node('a', 'step').node('m', 'step', { sample: true }).chain('a', 'm').build()
    const first = await run(doc, { cache: { lookup: () => undefined } })
    expect(started(await run(doc, { cache: cacheOf(first, 'run_1') }))).toEqual(['m'])
    expect(started(await run(doc, { cache: cacheOf(first, 'run_1', true) }))).toEqual([])
  })
})
