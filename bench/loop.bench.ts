/**
 * Loop bench (`npx tsx bench/loop.bench.ts`, part of `npm run bench`): a `forEach` loop over
 * 10,000 items whose body is one no-op node, against a plain loop that awaits the same executor
 * 10,000 times, both measured in this one run (these machines are noisy). The engine's overhead
 * per iteration (its events, the body sub-graph, template scope) must stay <= 20 µs.
 *
 * Prints a table of medians and the ratio and exits non-zero when the target fails.
 */
import {
  defineNodeType,
  runFlow,
  type FlowDocument,
  type NodeExecution,
  type NodeRegistry,
  type RunEvent,
} from '../src/engine/run.ts'
import { engineRegistry } from '../src/nodes/registry.ts'
import { benchContext } from './benchContext.ts'

const ITEMS = 10_000
const ROUNDS = 9
const WARMUPS = 3
const TARGET_OVERHEAD_US = 20

type Cfg = Record<string, unknown>
const noop = async (_exec: NodeExecution<Cfg>) => ({ output: {} })
const noopType = defineNodeType<Cfg>({
  type: 'noop',
  parseConfig: (raw) => ({ ok: true, value: raw as Cfg }),
  execute: noop,
})
const registry: NodeRegistry = new Map([
  ['noop', noopType],
  ['loop', engineRegistry.get('loop')!],
])

const items = JSON.stringify(Array.from({ length: ITEMS }, (_, i) => i))
const flow: FlowDocument = {
  metadata: { id: 'bench', name: 'bench', description: '', tags: [], createdAt: '', updatedAt: '' },
  viewport: { x: 0, y: 0, zoom: 1 },
  nodes: [
    { id: 'each', type: 'loop', position: { x: 0, y: 0 }, data: { label: 'each', config: { items } } },
    {
      id: 'body',
      type: 'noop',
      parentId: 'each',
      position: { x: 0, y: 0 },
      data: { label: 'body', config: {} },
    },
  ],
  edges: [],
}

async function engine(): Promise<void> {
  const events: RunEvent[] = []
  for await (const event of runFlow(flow, registry, benchContext())) events.push(event)
  const loop = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'each')
  if (loop?.type !== 'nodeFinish' || loop.output['count'] !== ITEMS)
    throw new Error('bench loop did not finish')
}

/** The baseline: the same executor awaited once per item. */
async function plainLoop(): Promise<void> {
  const ctx = benchContext()
  const node = flow.nodes[1]!
  const list = JSON.parse(items) as number[]
  const results: unknown[] = []
  for (let i = 0; i < list.length; i++) {
    const result = await noopType.execute({
      node,
      config: {},
      upstream: {},
      inputs: {},
      resolve: (t) => t,
      ctx,
      signal: ctx.signal,
      emit: { chunk: () => undefined, guard: () => undefined },
      runNode: async () => ({}),
    })
    results.push(result.output)
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

for (let i = 0; i < WARMUPS; i++) {
  await engine()
  await plainLoop()
}
const engineSamples: number[] = []
const loopSamples: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  engineSamples.push(await time(engine))
  loopSamples.push(await time(plainLoop))
}
const engineMs = median(engineSamples)
const loopMs = median(loopSamples)
const perItemUs = ((engineMs - loopMs) * 1000) / ITEMS
const ok = perItemUs <= TARGET_OVERHEAD_US

const header = ['measure', 'median', 'ratio / baseline', 'target', 'result']
const row = [
  `forEach overhead per iteration, ${ITEMS} items, no-op body`,
  `${perItemUs.toFixed(2)} µs`,
  `engine ${engineMs.toFixed(1)} ms vs loop ${loopMs.toFixed(1)} ms (x${(engineMs / loopMs).toFixed(2)})`,
  `<= ${TARGET_OVERHEAD_US} µs`,
  ok ? 'PASS' : 'FAIL',
]
const widths = header.map((_, col) => Math.max((header[col] as string).length, (row[col] as string).length))
for (const line of [header, row])
  console.log(
    line
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(`(medians of ${ROUNDS} rounds; Node ${process.version})`)
process.exit(ok ? 0 : 1)
