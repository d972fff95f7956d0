import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  defineNodeType,
  runFlow,
  type FlowDocument,
  type NodeRegistry,
  type ParseResult,
  type RunEvent,
} from '../../src/engine/run.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

type Cfg = Record<string, unknown>
const anyObject = (raw: unknown): ParseResult<Cfg> => ({ ok: true, value: (raw ?? {}) as Cfg })
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [])

/** `route`: outputs `a` and `b`, and leaves the ports its config lists in `skip` not taken. */
const routeType = defineNodeType<Cfg>({
  type: 'route',
  parseConfig: anyObject,
  ports: { inputs: [{ id: 'in' }], outputs: [{ id: 'a' }, { id: 'b' }] },
  execute: async ({ node, config }) => ({ output: { from: node.id }, notTaken: list(config['skip']) }),
})

/** `join`: joins branches; outputs the ids of the inputs it got. */
const joinType = defineNodeType<Cfg>({
  type: 'join',
  parseConfig: anyObject,
  joinsBranches: true,
  execute: async ({ inputs }) => ({ output: { got: Object.keys(inputs ?? {}).sort() } }),
})

const registry: NodeRegistry = new Map([
  ['route', routeType],
  ['join', joinType],
])

function wire(doc: FlowDocument, source: string, port: string, target: string): void {
  doc.edges.push({ id: `e${doc.edges.length}`, source, sourceHandle: port, target, targetHandle: 'in' })
}

async function run(doc: FlowDocument): Promise<RunEvent[]> {
  return collect(runFlow(doc, registry, testContext().ctx))
}

function outcome(events: RunEvent[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of events) {
    if (e.type === 'nodeFinish') out[e.nodeId] = 'done'
    if (e.type === 'nodeSkipped') out[e.nodeId] = e.reason
    if (e.type === 'nodeError') out[e.nodeId] = 'error'
  }
  return out
}

describe('not taken', () => {
  it('spreads down a chain from the port that was not chosen, and the run succeeds', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['b'] })
      .node('x', 'route')
      .node('y', 'route')
      .node('z', 'route')
      .build()
    wire(doc, 'r', 'a', 'x')
    wire(doc, 'r', 'b', 'y')
    wire(doc, 'y', 'a', 'z')
    const events = await run(doc)
    expect(outcome(events)).toEqual({ r: 'done', x: 'done', y: 'notTaken', z: 'notTaken' })
    expect(events.filter((e) => e.type === 'nodeSkipped')).toEqual([
      expect.objectContaining({ nodeId: 'y', reason: 'notTaken' }),
      expect.objectContaining({ nodeId: 'z', reason: 'notTaken' }),
    ])
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('runs a node that two cases of one condition lead to, whichever is taken', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['a'] })
      .node('x', 'route')
      .build()
    wire(doc, 'r', 'a', 'x')
    wire(doc, 'r', 'b', 'x')
    expect(outcome(await run(doc))).toEqual({ r: 'done', x: 'done' })
  })

  it('a diamond without a merge: the join of a taken and a not-taken branch is not taken', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['b'] })
      .node('x', 'route')
      .node('y', 'route')
      .node('j', 'route')
      .build()
    wire(doc, 'r', 'a', 'x')
    wire(doc, 'r', 'b', 'y')
    wire(doc, 'x', 'a', 'j')
    wire(doc, 'y', 'a', 'j')
    expect(outcome(await run(doc))).toEqual({ r: 'done', x: 'done', y: 'notTaken', j: 'notTaken' })
  })

  it('a merge joins the branches: it runs with the finished inputs only', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['b'] })
      .node('x', 'route')
      .node('y', 'route')
      .node('m', 'join')
      .build()
    wire(doc, 'r', 'a', 'x')
    wire(doc, 'r', 'b', 'y')
    wire(doc, 'x', 'a', 'm')
    wire(doc, 'y', 'a', 'm')
    const events = await run(doc)
    expect(outcome(events)).toEqual({ r: 'done', x: 'done', y: 'notTaken', m: 'done' })
    const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'm')
    expect(finish).toMatchObject({ output: { got: ['x'] } })
  })

  it('a merge none of whose inputs finished is not taken too', async () => {
    const doc = flow()
      .node('r', 'route', { skip: ['a', 'b'] })
      .node('x', 'route')
      .node('y', 'route')
      .node('m', 'join')
      .build()
    wire(doc, 'r', 'a', 'x')
    wire(doc, 'r', 'b', 'y')
    wire(doc, 'x', 'a', 'm')
    wire(doc, 'y', 'a', 'm')
    expect(outcome(await run(doc))).toEqual({ r: 'done', x: 'notTaken', y: 'notTaken', m: 'notTaken' })
  })

  it('random DAGs with random choices: no node starts with an input missing, every node settles once', async () => {
    const dag = fc.integer({ min: 1, max: 10 }).chain((n) =>
      fc.record({
        nodes: fc.array(fc.record({ join: fc.boolean(), skip: fc.subarray(['a', 'b']) }), {
          minLength: n,
          maxLength: n,
        }),
        edges: fc.array(
          fc.record({ from: fc.nat(n - 1), to: fc.nat(n - 1), port: fc.constantFrom('a', 'b') }),
          { maxLength: n * 3 },
        ),
      }),
    )
    await fc.assert(
      fc.asyncProperty(dag, async ({ nodes, edges }) => {
        const builder = flow()
        nodes.forEach((n, i) => builder.node(`n${i}`, n.join ? 'join' : 'route', { skip: n.skip }))
        const doc = builder.build()
        // Edges only forward (i < j) keep it acyclic; copies on the same ports fold as on import.
        const seen = new Set<string>()
        for (const e of edges) {
          const [from, to] = [Math.min(e.from, e.to), Math.max(e.from, e.to)]
          if (from === to || seen.has(`${from}-${to}-${e.port}`)) continue
          seen.add(`${from}-${to}-${e.port}`)
          wire(doc, `n${from}`, e.port, `n${to}`)
        }
        const events = await run(doc)
        const settled = new Map<string, number>()
        const done = new Map<string, string[]>() // finished node -> its not-taken ports
        const gone = new Set<string>() // not taken
        for (const event of events) {
          if (event.type === 'nodeStart') {
            const upstream = new Map<string, string[]>()
            for (const edge of doc.edges.filter((x) => x.target === event.nodeId))
              upstream.set(edge.source, [...(upstream.get(edge.source) ?? []), edge.sourceHandle ?? 'out'])
            const takenBy = (p: string, ports: string[]) =>
              done.has(p) && ports.some((port) => !(done.get(p) ?? []).includes(port))
            const join = nodes[Number(event.nodeId.slice(1))]?.join === true
            for (const [parent, ports] of upstream) {
              if (join) expect(done.has(parent) || gone.has(parent)).toBe(true)
              else expect(takenBy(parent, ports)).toBe(true)
            }
            if (join && upstream.size > 0)
              expect([...upstream].some(([p, ports]) => takenBy(p, ports))).toBe(true)
            for (const parent of Object.keys(event.inputs)) expect(done.has(parent)).toBe(true)
          }
          if (event.type === 'nodeFinish' || event.type === 'nodeSkipped' || event.type === 'nodeError')
            settled.set(event.nodeId, (settled.get(event.nodeId) ?? 0) + 1)
          if (event.type === 'nodeFinish') {
            const spec = nodes[Number(event.nodeId.slice(1))]
            // A join takes every port; a route leaves its `skip` ports not taken.
            done.set(event.nodeId, spec && !spec.join ? spec.skip : [])
          }
          if (event.type === 'nodeSkipped') gone.add(event.nodeId)
        }
        expect([...settled.keys()].sort()).toEqual(doc.nodes.map((n) => n.id).sort())
        expect([...settled.values()].every((count) => count === 1)).toBe(true)
        expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
      }),
      { numRuns: 200 },
    )
  })
})
