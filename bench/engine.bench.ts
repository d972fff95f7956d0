/**
 * Engine bench (`npx tsx bench/engine.bench.ts`, part of `npm run bench`). Everything is
 * measured in this one run, because these machines are noisy:
 *
 * 1. scheduler overhead per node on a 1,000-node DAG of no-op nodes, against a plain loop that
 *    calls the same executors in topological order (target <= 50 µs per node);
 * 2. a fan-out of 10 nodes of 100 ms each (target <= 130 ms for the whole run);
 * 3. a fast branch (3 nodes x 50 ms in a chain) beside one slow node (500 ms): the fast branch
 *    must end by 200 ms, i.e. it never waits for the slow node (no waves).
 *
 * Prints a table of medians and ratios and exits non-zero when a target fails.
 */
import {
  defineNodeType,
  renderTemplate,
  runFlow,
  topologicalSort,
  type FlowDocument,
  type NodeExecution,
  type NodeRegistry,
  type RunEvent,
} from '../src/engine/run.ts'
import { benchContext } from './benchContext.ts'

const DAG_NODES = 1_000
const DAG_ROUNDS = 15
const TIMED_ROUNDS = 5
const TARGET_OVERHEAD_US = 50
const FANOUT_WIDTH = 10
const FANOUT_NODE_MS = 100
const TARGET_FANOUT_MS = 130
const FAST_NODE_MS = 50
const FAST_CHAIN = 3
const SLOW_NODE_MS = 500
const TARGET_FAST_BRANCH_MS = 200

type Cfg = Record<string, unknown>
const parse = (raw: unknown) => ({ ok: true as const, value: raw as Cfg })

const noop = async (_exec: NodeExecution<Cfg>) => ({ output: {} })
const sleeper = async ({ config, ctx, signal }: NodeExecution<Cfg>) => {
  await ctx.clock.sleep(Number(config['ms']), signal)
  return { output: { ms: config['ms'] } }
}

const registry: NodeRegistry = new Map([
  ['noop', defineNodeType<Cfg>({ type: 'noop', parseConfig: parse, execute: noop })],
  ['sleep', defineNodeType<Cfg>({ type: 'sleep', parseConfig: parse, execute: sleeper })],
])

function doc(nodes: Array<[string, string, Cfg]>, edges: Array<[string, string]>): FlowDocument {
  return {
    metadata: { id: 'bench', name: 'bench', description: '', tags: [], createdAt: '', updatedAt: '' },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes: nodes.map(([id, type, config]) => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: { label: id, config },
    })),
    edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
  }
}

/** A deterministic random DAG: each node takes up to two parents among the 20 before it. */
function randomDag(size: number): FlowDocument {
  let seed = 42
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed / 2 ** 31
  }
  const nodes: Array<[string, string, Cfg]> = []
  const edges: Array<[string, string]> = []
  for (let i = 0; i < size; i++) {
    nodes.push([`n${i}`, 'noop', {}])
    const parents = new Set<number>()
    for (let k = 0; k < 2 && i > 0; k++) parents.add(i - 1 - Math.floor(random() * Math.min(i, 20)))
    for (const p of parents) edges.push([`n${p}`, `n${i}`])
  }
  return { ...doc(nodes, []), edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })) }
}

async function drain(flow: FlowDocument): Promise<RunEvent[]> {
  const events: RunEvent[] = []
  for await (const event of runFlow(flow, registry, benchContext())) events.push(event)
  const last = events.at(-1)
  if (last?.type !== 'runFinish' || last.status !== 'success') throw new Error('bench run did not succeed')
  return events
}

/** The baseline: the same executors, awaited one by one in topological order. */
async function plainLoop(flow: FlowDocument): Promise<void> {
  const ctx = benchContext()
  const order = topologicalSort(flow).order
  const byId = new Map(flow.nodes.map((n) => [n.id, n]))
  const outputs = new Map<string, Record<string, unknown>>()
  for (const id of order) {
    const node = byId.get(id)!
    const type = registry.get(node.type)!
    const config = type.parseConfig(node.data.config)
    if (!config.ok) throw new Error('bad config')
    const result = await type.execute({
      node,
      config: config.value,
      upstream: {},
      inputs: {},
      resolve: (t) => renderTemplate(t, (ref) => outputs.get(ref)),
      ctx,
      signal: ctx.signal,
      emit: { chunk: () => undefined, guard: () => undefined },
      runNode: async () => ({}),
    })
    outputs.set(id, result.output)
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

async function benchOverhead(): Promise<{ engineMs: number; loopMs: number; perNodeUs: number }> {
  const dag = randomDag(DAG_NODES)
  for (let i = 0; i < 3; i++) {
    await drain(dag) // warm-up / JIT
    await plainLoop(dag)
  }
  const engine: number[] = []
  const loop: number[] = []
  for (let round = 0; round < DAG_ROUNDS; round++) {
    engine.push(await time(() => drain(dag)))
    loop.push(await time(() => plainLoop(dag)))
  }
  const engineMs = median(engine)
  const loopMs = median(loop)
  return { engineMs, loopMs, perNodeUs: ((engineMs - loopMs) * 1000) / DAG_NODES }
}

async function benchFanOut(): Promise<number> {
  const nodes: Array<[string, string, Cfg]> = [['src', 'noop', {}]]
  const edges: Array<[string, string]> = []
  for (let i = 0; i < FANOUT_WIDTH; i++) {
    nodes.push([`f${i}`, 'sleep', { ms: FANOUT_NODE_MS }])
    edges.push(['src', `f${i}`])
  }
  const flow = doc(nodes, edges)
  const samples: number[] = []
  for (let round = 0; round < TIMED_ROUNDS; round++) samples.push(await time(() => drain(flow)))
  return median(samples)
}

async function benchFastBranch(): Promise<{ fastEndMs: number; runMs: number }> {
  const nodes: Array<[string, string, Cfg]> = [['slow', 'sleep', { ms: SLOW_NODE_MS }]]
  const edges: Array<[string, string]> = []
  for (let i = 0; i < FAST_CHAIN; i++) {
    nodes.push([`fast${i}`, 'sleep', { ms: FAST_NODE_MS }])
    if (i > 0) edges.push([`fast${i - 1}`, `fast${i}`])
  }
  const flow = doc(nodes, edges)
  const ends: number[] = []
  const runs: number[] = []
  for (let round = 0; round < TIMED_ROUNDS; round++) {
    const events = await drain(flow)
    const start = events[0]?.at ?? 0
    const fastEnd =
      events.find((e) => e.type === 'nodeFinish' && e.nodeId === `fast${FAST_CHAIN - 1}`)?.at ?? Infinity
    ends.push(fastEnd - start)
    runs.push((events.at(-1)?.at ?? Infinity) - start)
  }
  return { fastEndMs: median(ends), runMs: median(runs) }
}

const overhead = await benchOverhead()
const fanOut = await benchFanOut()
const branch = await benchFastBranch()

const rows: Array<[string, string, string, string, boolean]> = [
  [
    `overhead per node, ${DAG_NODES}-node DAG`,
    `${overhead.perNodeUs.toFixed(1)} µs`,
    `engine ${overhead.engineMs.toFixed(1)} ms vs loop ${overhead.loopMs.toFixed(1)} ms (x${(overhead.engineMs / overhead.loopMs).toFixed(2)})`,
    `<= ${TARGET_OVERHEAD_US} µs`,
    overhead.perNodeUs <= TARGET_OVERHEAD_US,
  ],
  [
    `fan-out ${FANOUT_WIDTH} x ${FANOUT_NODE_MS} ms`,
    `${fanOut.toFixed(1)} ms`,
    `x${(fanOut / FANOUT_NODE_MS).toFixed(2)} of one node`,
    `<= ${TARGET_FANOUT_MS} ms`,
    fanOut <= TARGET_FANOUT_MS,
  ],
  [
    `fast branch ${FAST_CHAIN} x ${FAST_NODE_MS} ms beside ${SLOW_NODE_MS} ms`,
    `${branch.fastEndMs.toFixed(1)} ms`,
    `x${(branch.fastEndMs / (FAST_CHAIN * FAST_NODE_MS)).toFixed(2)} of the chain; whole run ${branch.runMs.toFixed(0)} ms`,
    `<= ${TARGET_FAST_BRANCH_MS} ms`,
    branch.fastEndMs <= TARGET_FAST_BRANCH_MS,
  ],
]

const header: [string, string, string, string, string] = [
  'measure',
  'median',
  'ratio / baseline',
  'target',
  'result',
]
const table = [header, ...rows.map(([a, b, c, d, ok]) => [a, b, c, d, ok ? 'PASS' : 'FAIL'])]
const widths = header.map((_, col) => Math.max(...table.map((row) => (row[col] as string).length)))
for (const row of table)
  console.log(
    row
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(`(medians of ${DAG_ROUNDS} DAG rounds and ${TIMED_ROUNDS} timed rounds; Node ${process.version})`)
process.exit(rows.every((row) => row[4]) ? 0 : 1)
