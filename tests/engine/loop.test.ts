import { beforeAll, describe, expect, it } from 'vitest'
import {
  defaultProtection,
  defineNodeType,
  FlowError,
  preflight,
  runFlow,
  type FlowDocument,
  type NodeRegistry,
  type ParseResult,
  type RunEvent,
} from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { collect, flow, ofType, testContext, type TestContextOptions } from '../support/flowBuilders.ts'
import { testRegistry } from './testTypes.ts'

type Cfg = Record<string, unknown>
const anyObject = (raw: unknown): ParseResult<Cfg> => ({ ok: true, value: (raw ?? {}) as Cfg })

let active = 0
let maxActive = 0

/** Sleeps `ms` (a template) on the run clock, then outputs `value` (a template). */
const delayType = defineNodeType<Cfg>({
  type: 'delay',
  parseConfig: anyObject,
  async execute({ config, resolve, ctx, signal }) {
    active++
    maxActive = Math.max(maxActive, active)
    try {
      await ctx.clock.sleep(Number(resolve(String(config['ms'] ?? '0'), 'ms')), signal)
      return { output: { value: resolve(String(config['value'] ?? ''), 'value') } }
    } finally {
      active--
    }
  },
})

/** Fails when `when` resolves to "yes". */
const failIfType = defineNodeType<Cfg>({
  type: 'failIf',
  parseConfig: anyObject,
  async execute({ config, resolve, node }) {
    const when = resolve(String(config['when']), 'when')
    if (when === 'yes') throw new FlowError('HTTP_STATUS', `refused ${when}`, { nodeId: node.id })
    return { output: { ok: when } }
  },
})

/** Outputs what its `inputs` held, as a Code node would see them. */
const inputsType = defineNodeType<Cfg>({
  type: 'inputs',
  parseConfig: anyObject,
  execute: async ({ inputs }) => ({ output: { seen: JSON.parse(JSON.stringify(inputs)) as unknown } }),
})

const registry: NodeRegistry = new Map([
  ...testRegistry,
  ['delay', delayType],
  ['failIf', failIfType],
  ['inputs', inputsType],
  ['loop', engineRegistry.get('loop')!],
])

function inBody(doc: FlowDocument, loopId: string, ...ids: string[]): FlowDocument {
  for (const n of doc.nodes) if (ids.includes(n.id)) n.parentId = loopId
  return doc
}

async function run(doc: FlowDocument, options: TestContextOptions = {}): Promise<RunEvent[]> {
  const { ctx, clock } = testContext(options)
  const done = collect(runFlow(doc, registry, ctx))
  await clock.runAll()
  return done
}

// The loop's runner loads on its first run (lazyExecutor). The run clock's `runAll` only advances
// sleepers already waiting, so load it once before the timed tests.
beforeAll(async () => {
  const warm = inBody(
    flow()
      .node('each', 'loop', { mode: 'forEach', items: '[1]' })
      .node('t', 'text', { template: 'x' })
      .build(),
    'each',
    't',
  )
  await collect(runFlow(warm, registry, testContext().ctx))
})

function loopOutput(events: RunEvent[], id = 'each'): Record<string, unknown> | undefined {
  return ofType(events, 'nodeFinish').find((e) => e.nodeId === id && e.path === undefined)?.output
}

describe('loop: forEach', () => {
  it('keeps results in item order under concurrency, and runs up to `concurrency` at once', async () => {
    maxActive = 0
    const doc = inBody(
      flow()
        .node('src', 'text', { template: '[30, 10, 20, 0, 5]' })
        .node('each', 'loop', { mode: 'forEach', items: '{{src.text}}', concurrency: 3 })
        .node('d', 'delay', {
          ms: '{{each.item}}',
          value: '#{{each.index}}={{each.item}} after {{src.text}}',
        })
        .node('out', 'text', { template: '{{each.count}}' })
        .chain('src', 'each', 'out')
        .build(),
      'each',
      'd',
    )
    const events = await run(doc)
    const output = loopOutput(events)
    expect(output?.['count']).toBe(5)
    expect((output?.['results'] as Array<{ value: string }>).map((r) => r.value.split(' ')[0])).toEqual([
      '#0=30',
      '#1=10',
      '#2=20',
      '#3=0',
      '#4=5',
    ])
    expect(maxActive).toBe(3)
    // Body events say where they happened; the scheduler never ran `d` on its own.
    const body = ofType(events, 'nodeFinish').filter((e) => e.nodeId === 'd')
    expect(body.map((e) => e.nesting?.[0]?.iteration).sort()).toEqual([0, 1, 2, 3, 4])
    expect(body.every((e) => e.nesting?.length === 1 && e.nesting[0]?.nodeId === 'each')).toBe(true)
    expect(body.every((e) => e.path === undefined)).toBe(true)
    expect(ofType(events, 'runStart')[0]?.nodeIds).toEqual(['src', 'each', 'out'])
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
    expect(ofType(events, 'nodeFinish').find((e) => e.nodeId === 'out')?.output).toEqual({ text: '5' })
  })

  it("gives body nodes the loops' scopes in `inputs` (a Code node reads inputs.<loop>.item)", async () => {
    const doc = inBody(
      inBody(
        flow()
          .node('src', 'text', { template: '[["a","b"],["c"]]' })
          .node('rows', 'loop', { mode: 'forEach', items: '{{src.text}}', resultNode: 'cells' })
          .node('cells', 'loop', { mode: 'forEach', items: '{{rows.item}}', resultNode: 'two' })
          .node('one', 'inputs', {})
          .node('two', 'inputs', {})
          .edge('src', 'rows')
          .edge('one', 'two')
          .build(),
        'rows',
        'cells',
      ),
      'cells',
      'one',
      'two',
    )
    const events = await run(doc)
    const starts = ofType(events, 'nodeStart').filter((e) => e.nodeId === 'one')
    // The entry node of the inner body: both loops' scopes (item, index, previous), nothing else.
    const last = starts.map((e) => e.inputs).find((i) => (i['cells'] as Cfg | undefined)?.['item'] === 'c')
    expect(Object.keys(last ?? {})).toEqual(['rows', 'cells'])
    expect(last).toMatchObject({
      rows: { item: ['c'], index: 1 },
      cells: { item: 'c', index: 0, previous: null },
    })
    const results = loopOutput(events, 'rows')?.['results'] as Array<{ results: Array<{ seen: Cfg }> }>
    const second = results[0]?.results[1]?.seen
    // A later body node: the scopes, then what its body parents output.
    expect(Object.keys(second ?? {})).toEqual(['rows', 'cells', 'one'])
    expect(second?.['cells']).toMatchObject({ item: 'b', index: 1 })
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
  })

  it('fails the loop naming the index, unless onItemError is continue', async () => {
    const build = (onItemError: string) =>
      inBody(
        flow()
          .node('each', 'loop', { items: '["no", "yes", "no"]', onItemError })
          .node('f', 'failIf', { when: '{{each.item}}' })
          .build(),
        'each',
        'f',
      )
    const failed = await run(build('fail'))
    const error = ofType(failed, 'nodeError').find((e) => e.nodeId === 'each')
    expect(error?.message).toContain('Iteration 1 of loop "each" failed: refused yes')
    expect(ofType(failed, 'runFinish')[0]?.status).toBe('error')

    const kept = await run(build('continue'))
    expect(loopOutput(kept)?.['results']).toEqual([{ ok: 'no' }, { error: 'refused yes' }, { ok: 'no' }])
    expect(ofType(kept, 'runFinish')[0]?.status).toBe('success')
  })

  it('refuses items that are not a JSON array', async () => {
    const doc = inBody(
      flow().node('each', 'loop', { items: 'not a list' }).node('t', 'text', { template: 'x' }).build(),
      'each',
      't',
    )
    const error = ofType(await run(doc), 'nodeError')[0]
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(error?.message).toContain('items must be a JSON array')
  })

  it('stops inside the loop when the run is aborted', async () => {
    const doc = inBody(
      flow().node('each', 'loop', { items: '[1, 2, 3]' }).node('w', 'wait', { ms: 100 }).build(),
      'each',
      'w',
    )
    const { ctx, clock, controller } = testContext()
    const done = collect(runFlow(doc, registry, ctx))
    await clock.waitForSleepers(1)
    controller.abort()
    await clock.runAll()
    const events = await done
    expect(ofType(events, 'runFinish')[0]?.status).toBe('cancelled')
    expect(ofType(events, 'nodeStart').filter((e) => e.nodeId === 'w')).toHaveLength(1)
    expect(ofType(events, 'nodeError').find((e) => e.nodeId === 'each')?.code).toBe('CANCELLED')
  })
})

describe('loop: while', () => {
  const whileFlow = (template: string, config: Cfg) =>
    inBody(
      flow()
        .node('each', 'loop', { mode: 'while', ...config })
        .node('t', 'text', { template })
        .build(),
      'each',
      't',
    )

  it('stops when until holds, with previous the iteration just finished', async () => {
    const doc = whileFlow('n{{each.index}} after {{each.previous.text}}', {
      until: { rules: [{ value: '{{each.previous.text}}', op: 'startsWith', to: 'n2' }] },
    })
    const events = await run(doc)
    const output = loopOutput(events)
    expect(output?.['stopReason']).toBe('until')
    expect(output?.['results']).toEqual([
      { text: 'n0 after ' },
      { text: 'n1 after n0 after ' },
      { text: 'n2 after n1 after n0 after ' },
    ])
    expect(ofType(events, 'guard')).toEqual([])
  })

  it('stops at maxIterations with an iterations trip', async () => {
    const events = await run(whileFlow('n{{each.index}}', { maxIterations: 4 }))
    expect(loopOutput(events)?.['count']).toBe(4)
    expect(loopOutput(events)?.['stopReason']).toBe('maxIterations')
    const guards = ofType(events, 'guard')
    expect(guards.map((g) => [g.nodeId, g.layer, g.level])).toEqual([['each', 'iterations', 'trip']])
  })

  it('hints at the 2nd identical result and stops stuck at the 3rd (canonical signature)', async () => {
    const doc = whileFlow('same', { maxIterations: 50 })
    const events = await run(doc)
    expect(loopOutput(events)?.['stopReason']).toBe('stuck')
    expect(loopOutput(events)?.['count']).toBe(3)
    const guards = ofType(events, 'guard').map((g) => [g.layer, g.level, g.detector, g.count])
    expect(guards).toEqual([
      ['loop', 'hint', 'repeat', 2],
      ['loop', 'trip', 'repeat', 3],
    ])
    expect(ofType(events, 'nodeFinish').find((e) => e.nodeId === 'each')?.status).toBe('stopped')
  })

  it('stops at the run token budget', async () => {
    const protection = { ...defaultProtection(), maxTokenBudget: 5 }
    const events = await run(whileFlow('n{{each.index}}', { maxIterations: 50 }), { protection })
    expect(loopOutput(events)?.['stopReason']).toBe('budget')
    expect(loopOutput(events)?.['count']).toBe(2)
    const guard = ofType(events, 'guard')[0]
    expect([guard?.layer, guard?.level, guard?.total, guard?.budget]).toEqual(['budget', 'trip', 6, 5])
    expect(ofType(events, 'runFinish')[0]?.usage.total).toBe(6)
  })
})

describe('loop: preflight', () => {
  it('lets body nodes read the loop scope and what the loop sees', () => {
    const doc = inBody(
      flow()
        .node('src', 'text', { template: '[1]' })
        .node('each', 'loop', { items: '{{src.text}}' })
        .node('t', 'text', { template: '{{each.item}} {{each.index}} {{src.text}}' })
        .edge('src', 'each')
        .build(),
      'each',
      't',
    )
    expect(preflight(doc, registry).filter((p) => p.severity === 'error')).toEqual([])
  })
})

describe('loop in loop', () => {
  const nested = () => {
    const doc = flow()
      .node('src', 'text', { template: '[["a", "b"], ["c"], ["d", "e", "f"]]' })
      .node('outer', 'loop', { mode: 'forEach', items: '{{src.text}}', concurrency: 2, resultNode: 'line' })
      .node('inner', 'loop', { mode: 'forEach', items: '{{outer.item}}', concurrency: 2 })
      .node('label', 'delay', {
        ms: '{{inner.index}}',
        value: '{{outer.index}}.{{inner.index}} {{inner.item}}',
      })
      .node('line', 'text', { template: '{{outer.index}}: {{inner.count}} ({{inner.results[0].value}})' })
      .node('out', 'text', { template: '{{outer.count}}' })
      .chain('src', 'outer', 'out')
      .chain('inner', 'line')
      .build()
    inBody(doc, 'outer', 'inner', 'line')
    return inBody(doc, 'inner', 'label')
  }

  it('runs the inner loop once per outer item, each with its own items and index', async () => {
    const events = await run(nested())
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
    expect(loopOutput(events, 'outer')).toEqual({
      results: [{ text: '0: 2 (0.0 a)' }, { text: '1: 1 (1.0 c)' }, { text: '2: 3 (2.0 d)' }],
      count: 3,
    })
    const labels = ofType(events, 'nodeFinish').filter((e) => e.nodeId === 'label')
    expect(labels.map((e) => String(e.output['value'])).sort()).toEqual([
      '0.0 a',
      '0.1 b',
      '1.0 c',
      '2.0 d',
      '2.1 e',
      '2.2 f',
    ])
    // Nested body events say every enclosing loop's index: the inner index restarts per outer item.
    for (const e of labels) {
      const [o, i] = String(e.output['value']).split(' ')[0]!.split('.').map(Number)
      expect(e.nesting).toEqual([
        { nodeId: 'outer', kind: 'loop', iteration: o },
        { nodeId: 'inner', kind: 'loop', iteration: i },
      ])
      expect(e.path).toBeUndefined()
    }
    // The inner loop itself is a body node of the outer one: one level.
    const inner = ofType(events, 'nodeFinish').filter((e) => e.nodeId === 'inner')
    expect(inner).toHaveLength(3)
    expect(inner.every((e) => e.nesting?.length === 1 && e.nesting[0]?.nodeId === 'outer')).toBe(true)
    expect(ofType(events, 'nodeFinish').find((e) => e.nodeId === 'out')?.output).toEqual({ text: '3' })
  })

  it('an inner iteration failing fails both loops, naming the indexes', async () => {
    const doc = nested()
    const label = doc.nodes.find((n) => n.id === 'label')!
    label.type = 'failIf'
    label.data.config = { when: 'yes' }
    const events = await run(doc)
    const outer = ofType(events, 'nodeError').find((e) => e.nodeId === 'outer' && e.path === undefined)
    expect(outer?.message).toMatch(
      /^Iteration \d of loop "outer" failed: Iteration 0 of loop "inner" failed: refused yes/,
    )
    expect(ofType(events, 'runFinish')[0]?.status).toBe('error')
  })
})
