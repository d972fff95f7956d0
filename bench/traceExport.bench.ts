/**
 * Trace export bench (`npx tsx bench/traceExport.bench.ts`, part of `npm run bench`; issue 19):
 * the History tab's "download trace" on a run of about 1,000 recorded events. The run is real: a
 * 250-node chain of LLM nodes on the built-in demo provider (its stream pauses skipped) runs
 * through the engine and the app's RunRecorder keeps its record, as the browser stores it. The
 * bench times traceFileOf on that record (runToOtlp: spans, attributes, secret scrubbing, then
 * JSON.stringify), with content (prompts, replies, inputs, outputs) and without, two secrets to
 * scrub. Target: <= 50 ms per export (p50). CPU time (process.cpuUsage) is the target's figure,
 * wall time beside it: the machines are shared. Exits non-zero when the target fails.
 */
import { loadavg } from 'node:os'
import { RunRecorder } from '../src/app/runs/runRecorder.ts'
import { traceFileOf } from '../src/app/runs/traceFile.ts'
import { runFlow, type FlowDocument } from '../src/engine/run.ts'
import { engineRegistry, getNodeDefinition } from '../src/nodes/registry.ts'
import { createDemoProvider } from '../src/providers/demo.ts'
import type { RunRecord } from '../src/storage/rows.ts'
import { benchContext } from './benchContext.ts'

const LLM_NODES = 250
const TARGET_MS = 50
const ROUNDS = 15
const SECRETS = ['sk-bench-0123456789abcdefghijklmnop', 'hdr-secret-value-42']

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

function chainOfModels(): FlowDocument {
  const llm = getNodeDefinition('llm')
  if (!llm) throw new Error('no llm node type')
  const ids = Array.from({ length: LLM_NODES }, (_, i) => `llm${i}`)
  return {
    metadata: { id: 'bench_trace', name: 'trace', description: '', tags: [], createdAt: '', updatedAt: '' },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes: ids.map((id, i) => ({
      id,
      type: 'llm',
      position: { x: 0, y: i * 120 },
      data: {
        label: id,
        config: {
          ...(llm.defaultConfig() as Record<string, unknown>),
          provider: 'demo',
          systemPrompt: 'You are a careful analyst. Answer in two short paragraphs.',
          prompt: `Step ${i}: summarise the quarterly report on regional revenue, returns and late invoices.`,
        },
      },
    })),
    edges: ids.slice(1).map((id, i) => ({ id: `e${i}`, source: `llm${i}`, target: id })),
  }
}

const doc = chainOfModels()
const clock = { now: () => Date.now(), sleep: async (): Promise<void> => undefined }
const ctx = { ...benchContext(), providers: { resolve: async () => createDemoProvider({ clock }) } }
const recorder = new RunRecorder(doc.metadata.id)
for await (const event of runFlow(doc, engineRegistry, ctx)) recorder.push(event)
const record = recorder.record() as RunRecord
if (record.status !== 'success') throw new Error('the recorded run must succeed')
const eventCount = record.events.length
const recordKb = JSON.stringify(record.events).length / 1000

let bytes = 0
const coldStart = performance.now()
bytes += traceFileOf(record, { content: true, secrets: SECRETS }).length
const coldMs = performance.now() - coldStart
function measure(content: boolean): { cpu: number; wall: number; kb: number } {
  const options = { content, secrets: SECRETS }
  for (let i = 0; i < 5; i++) bytes += traceFileOf(record, options).length // warm-up / JIT
  const cpu: number[] = []
  const wall: number[] = []
  let size = 0
  for (let round = 0; round < ROUNDS; round++) {
    const startWall = performance.now()
    const startCpu = cpuMs()
    size = traceFileOf(record, options).length
    cpu.push(cpuMs() - startCpu)
    wall.push(performance.now() - startWall)
    bytes += size
  }
  const median = (list: number[]): number => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number
  return { cpu: median(cpu), wall: median(wall), kb: size / 1000 }
}

const withContent = measure(true)
const without = measure(false)
const pass = withContent.cpu <= TARGET_MS && without.cpu <= TARGET_MS
const rows = [
  ['measure', 'CPU p50', 'wall p50', 'file', 'target', 'result'],
  ...[
    ['with content', withContent],
    ['without content', without],
  ].map(([name, m]) => {
    const { cpu, wall, kb } = m as { cpu: number; wall: number; kb: number }
    return [
      `trace export of a ${eventCount}-event run, ${name as string}`,
      `${cpu.toFixed(1)} ms`,
      `${wall.toFixed(1)} ms`,
      `${kb.toFixed(0)} KB`,
      `<= ${TARGET_MS} ms`,
      cpu <= TARGET_MS ? 'PASS' : 'FAIL',
    ]
  }),
]
const widths = (rows[0] as string[]).map((_, col) => Math.max(...rows.map((r) => (r[col] as string).length)))
for (const row of rows)
  console.log(
    row
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(
  `(p50 of ${ROUNDS} exports after 5 warm-up; first export of the process (cold) ${coldMs.toFixed(1)} ms wall; record: ${LLM_NODES} LLM nodes on the demo provider, ` +
    `${recordKb.toFixed(0)} KB of events; ${SECRETS.length} secrets scrubbed; load average ` +
    `${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}; Node ${process.version}; sink ${bytes > 0 ? 'ok' : 'empty'})`,
)
process.exit(pass ? 0 : 1)
