/**
 * Run-from-here bench (`npx tsx bench/runFromHere.bench.ts`, part of `npm run bench`; issue 19):
 * a 50-node chain of Template nodes ran once and was recorded; "run from here" on its last node
 * reads that record (previousRunOf, as the run service does), plans the run (planFromHere) and
 * runs it with the cache on. It must start exactly 1 node and take <= 5 ms in all; beside it, in
 * the same run, the same last node run alone (runNode) with its inputs given by hand: the floor.
 * Prints a table and exits non-zero when a target fails.
 */
import { previousRunOf, resultCacheOf } from '../src/app/runs/reuseOptions.ts'
import { RunRecorder } from '../src/app/runs/runRecorder.ts'
import {
  planFromHere,
  planRun,
  runFlow,
  runNode,
  type FlowDocument,
  type RunEvent,
} from '../src/engine/run.ts'
import { engineRegistry, getNodeDefinition } from '../src/nodes/registry.ts'
import type { RunRecord } from '../src/storage/rows.ts'
import { benchContext } from './benchContext.ts'

const CHAIN_NODES = 50
const TARGET_MS = 5
const ROUNDS = 31

function chain(): FlowDocument {
  const template = getNodeDefinition('template')
  if (!template) throw new Error('no template node type')
  const ids = Array.from({ length: CHAIN_NODES }, (_, i) => `t${i}`)
  return {
    metadata: { id: 'bench_chain', name: 'chain', description: '', tags: [], createdAt: '', updatedAt: '' },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes: ids.map((id, i) => ({
      id,
      type: 'template',
      position: { x: i * 240, y: 0 },
      data: {
        label: id,
        config: {
          ...(template.defaultConfig() as Record<string, unknown>),
          template: i === 0 ? 'start' : `{{t${i - 1}.text}} +${i}`,
        },
      },
    })),
    edges: ids.slice(1).map((id, i) => ({ id: `e${i}`, source: `t${i}`, target: id })),
  }
}

const doc = chain()
const last = `t${CHAIN_NODES - 1}`

async function drain(events: AsyncIterable<RunEvent>, recorder?: RunRecorder): Promise<RunEvent[]> {
  const out: RunEvent[] = []
  for await (const event of events) {
    out.push(event)
    recorder?.push(event)
  }
  return out
}

const recorder = new RunRecorder(doc.metadata.id)
await drain(runFlow(doc, engineRegistry, benchContext(), { cache: { lookup: () => undefined } }), recorder)
const record = recorder.record() as RunRecord
if (record.status !== 'success') throw new Error('the recorded chain run must succeed')

/** One "run from here" on the last node, from reading the record to the run's end. */
async function fromHere(): Promise<number> {
  const previous = previousRunOf(record)
  const plan = planFromHere(doc, planRun(doc, engineRegistry).graph, last, previous, 'fromHere')
  const events = await drain(
    runFlow(doc, engineRegistry, benchContext(), { ...plan, cache: resultCacheOf([record], true) }),
  )
  return events.filter((e) => e.type === 'nodeStart').length
}

/** The last node alone, its upstream output given by hand. */
async function alone(): Promise<number> {
  const result = await runNode(doc, engineRegistry, benchContext(), last, {
    [`t${CHAIN_NODES - 2}`]: { text: 'x' },
  })
  return typeof result.output['text'] === 'string' ? 1 : 0
}

const started = await fromHere()
for (let i = 0; i < 20; i++) await fromHere() // warm-up / JIT
const samples: number[] = []
const floor: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  let start = performance.now()
  await fromHere()
  samples.push(performance.now() - start)
  start = performance.now()
  await alone()
  floor.push(performance.now() - start)
}
const median = (list: number[]): number => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number
const ms = median(samples)
const floorMs = median(floor)
const pass = started === 1 && ms <= TARGET_MS

const header = ['measure', 'median', 'ratio / baseline', 'target', 'result']
const row = [
  `run from here on the last of a ${CHAIN_NODES}-node chain (nodes started: ${started})`,
  `${ms.toFixed(2)} ms`,
  `x${(ms / floorMs).toFixed(1)} of the node run alone (${floorMs.toFixed(3)} ms)`,
  `1 node, <= ${TARGET_MS} ms`,
  pass ? 'PASS' : 'FAIL',
]
const widths = header.map((h, col) => Math.max(h.length, (row[col] as string).length))
for (const line of [header, row])
  console.log(
    line
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(
  `(medians of ${ROUNDS} rounds of wall time, reading the record included; Node ${process.version})`,
)
process.exit(pass ? 0 : 1)
