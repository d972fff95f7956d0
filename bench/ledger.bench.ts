/**
 * Run-cost bookkeeping bench (`npx tsx bench/ledger.bench.ts`, part of `npm run bench`; issue 20):
 * what the run's cost bookkeeping adds to one model call, as the LLM executor makes it. Both
 * sides wrap the same in-memory provider with observeProvider and hand its modelCall event to a
 * sink, as the runner does; the bookkeeping side also passes the run's gate (gateOf: RunBudget
 * predicts the call with the real tokenizer, gpt-tokenizer in this thread as the CLI counts) and
 * the sink runs RunCostMeter.observe (CostLedger.charge) on the modelCall and on the node's
 * nodeFinish. Pricing is the app's real port (browserPricing over the genai-prices table) for
 * gpt-4o-mini on OpenAI. The prompt is a realistic ~3 KB (system + user), the reply reports usage.
 *
 * Target: bookkeeping <= 0.5 % of a 10 ms call, i.e. <= 50 µs of CPU per call (p50), with run
 * limits set; the same without limits (charge only) beside it. Far below a limit the gate checks
 * the prompt's byte ceiling and skips the tokenizer; within a call's ceiling of a limit it also
 * counts the prompt, shown on its own row (the calls that may be refused pay for the count).
 * CPU time (process.cpuUsage): the machines are shared. Exits non-zero when the target fails.
 */
import { loadavg } from 'node:os'
import { browserPricing, loadPriceTable } from '../src/app/runs/pricing.ts'
import { gateOf, observeProvider, callEvent } from '../src/engine/callEvents.ts'
import { estimatePromptTokens } from '../src/engine/agent/tokens.ts'
import { RunBudget } from '../src/engine/cost/runBudget.ts'
import { RunCostMeter } from '../src/engine/cost/runCost.ts'
import type { RunLimits } from '../src/engine/cost/ledger.ts'
import type { RunEvent } from '../src/engine/events.ts'
import type { ChatChunk, ChatRequest, LlmProvider } from '../src/engine/ports.ts'
import { systemClock } from '../src/platform/systemClock.ts'
import { loadTokenEstimator } from '../src/providers/tokens.ts'
import type { ProviderSettings } from '../src/settings/schema.ts'

const TARGET_US = 50
const CALL_MS = 10
const CALLS_PER_SAMPLE = 200
const ROUNDS = 31

function cpuUs(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}

const openai: ProviderSettings = {
  id: 'openai',
  label: 'OpenAI',
  kind: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  models: [],
  apiKey: '',
  stream: true,
  headers: [],
}
const pricing = browserPricing(await loadPriceTable(), () => [openai])
const estimate = await loadTokenEstimator()

const sentence = 'The quarterly report lists revenue by region, with notes on returns and late invoices. '
const system = `You are a careful analyst. ${sentence.repeat(12)}`.trim()
const request: ChatRequest = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: system },
    { role: 'user', content: `Summarise this:\n${sentence.repeat(24)}` },
  ],
  temperature: 0.2,
  maxTokens: 800,
}
const replyText = 'Revenue rose in two regions; returns fell. '.repeat(8)
const replyChunks = replyText.match(/.{1,16}/g) ?? []

/** The provider: answers at once, in 16-character deltas, reporting usage as OpenAI does. */
const provider: LlmProvider = {
  id: 'openai',
  async *chat(): AsyncGenerator<ChatChunk> {
    for (const text of replyChunks) yield { type: 'text', text }
    yield {
      type: 'done',
      result: {
        text: replyText,
        reasoning: '',
        toolCalls: [],
        usage: { prompt: 640, completion: 96 },
        finishReason: 'stop',
        model: 'gpt-4o-mini-2024-07-18',
      },
    }
  },
}

const signal = new AbortController().signal
let sink = 0 // characters read and events seen: keeps the work observable

/** CALLS_PER_SAMPLE calls, each read to its end; `limits` undefined = no bookkeeping at all. */
async function calls(limits: RunLimits | undefined): Promise<void> {
  const budget = limits ? new RunBudget(pricing, limits, estimate, () => undefined) : undefined
  const meter = budget ? new RunCostMeter(budget.ledger) : undefined
  const observe = (event: RunEvent): void => {
    const seen = meter ? meter.observe(event) : event
    if (meter?.takeCrossing()) throw new Error('the bench run must not cross its budget')
    if (seen.type === 'nodeFinish' || seen.type === 'modelCall') sink++
  }
  const wrapped = observeProvider(
    provider,
    systemClock,
    (record) => observe({ ...callEvent('llm1', record), runId: 'bench', at: systemClock.now() } as RunEvent),
    gateOf(budget, () => undefined),
  )
  for (let i = 0; i < CALLS_PER_SAMPLE; i++) {
    for await (const chunk of wrapped.chat(request, signal))
      if (chunk.type === 'text') sink += chunk.text.length
    const usage = { prompt: 640, completion: 96, total: 736 }
    observe({
      type: 'nodeFinish',
      runId: 'bench',
      at: systemClock.now(),
      nodeId: 'llm1',
      output: {},
      usage,
    } as RunEvent)
  }
  if (meter && meter.ledger.snapshot().costUsd === null) throw new Error('gpt-4o-mini must be priced')
}

const withLimits: RunLimits = { maxRunTokens: 1e12, maxRunCostUsd: 1e9 }
const variants = {
  bare: undefined,
  limits: withLimits,
  noLimits: {},
} satisfies Record<string, RunLimits | undefined>
type Variant = keyof typeof variants

/** The gate's own prediction input: the prompt counted by the tokenizer, alone. */
async function counts(): Promise<void> {
  for (let i = 0; i < CALLS_PER_SAMPLE; i++) sink += await estimatePromptTokens(request, estimate)
}
const counting: number[] = []
const perCall: Record<Variant, number[]> = { bare: [], limits: [], noLimits: [] }
for (let i = 0; i < 10; i++) for (const v of Object.keys(variants) as Variant[]) await calls(variants[v]) // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const v of Object.keys(variants) as Variant[]) {
    const start = cpuUs()
    await calls(variants[v])
    perCall[v].push((cpuUs() - start) / CALLS_PER_SAMPLE)
  }
  const start = cpuUs()
  await counts()
  counting.push((cpuUs() - start) / CALLS_PER_SAMPLE)
}
const median = (list: number[]): number =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number
/** Per round, bookkeeping minus bare of the same round (interleaved, so load hits both alike). */
const extra = (v: Variant): number => median(perCall[v].map((us, i) => us - (perCall.bare[i] as number)))

const limitsUs = extra('limits')
const noLimitsUs = extra('noLimits')
const pass = limitsUs <= TARGET_US
const share = (us: number): string => `${((us / (CALL_MS * 1000)) * 100).toFixed(3)} % of ${CALL_MS} ms`
const rows = [
  ['measure', 'CPU p50', 'ratio / baseline', 'target', 'result'],
  [
    'cost bookkeeping per call, run limits set, far below them (ceiling only)',
    `${limitsUs.toFixed(1)} µs`,
    `${share(limitsUs)}; call alone ${median(perCall.bare).toFixed(1)} µs`,
    `<= ${TARGET_US} µs`,
    pass ? 'PASS' : 'FAIL',
  ],
  [
    'cost bookkeeping per call, no run limits (charge only)',
    `${noLimitsUs.toFixed(1)} µs`,
    share(noLimitsUs),
    'info',
    '-',
  ],
  [
    '  near a limit the gate also counts the prompt (tokenizer), per call',
    `${median(counting).toFixed(1)} µs`,
    share(median(counting)),
    'info',
    '-',
  ],
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
  `(p50 over ${ROUNDS} interleaved rounds of ${CALLS_PER_SAMPLE} calls, CPU time, bookkeeping minus the bare ` +
    `wrapped call of the same round; prompt ~${Math.round((system.length + sentence.length * 24) / 1000)} KB, ` +
    `real tokenizer and price table; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}; Node ${process.version}; sink ${sink > 0 ? 'ok' : 'empty'})`,
)
process.exit(pass ? 0 : 1)
