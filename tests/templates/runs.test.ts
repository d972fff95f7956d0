import { afterAll, describe, expect, it } from 'vitest'
import type { FlowDocument, RunEvent } from '../../src/engine/index.ts'
import {
  createRunner,
  errorsOf,
  finishOf,
  guardsOf,
  loadTemplate,
  outputOf,
  readIndex,
  runTemplate,
  scriptTexts,
  SITE_BASE,
  type TemplateRun,
} from './harness.ts'

const runner = createRunner()
afterAll(() => runner.dispose())

const docs = new Map<string, FlowDocument>(readIndex().templates.map((t) => [t.id, loadTemplate(t.file)]))

function doc(id: string): FlowDocument {
  const found = docs.get(id)
  if (!found) throw new Error(`no template ${id}`)
  return found
}

function runFinish(events: readonly RunEvent[]) {
  return events.find((e) => e.type === 'runFinish')
}

/** The Agent's tool-call records as its output reports them. */
function toolCalls(run: TemplateRun, nodeId = 'agent') {
  return outputOf(run.events, nodeId)?.['toolCalls'] as Array<{
    name: string
    args: string
    observation: string
  }>
}

/** Templates whose point is the whole-run budget stopping them: their own test below checks the stop. */
const STOPPED_BY_RUN_BUDGET = new Set(['budget-team'])

describe('every bundled template runs offline with the demo provider', () => {
  // A template that needs a local MCP server runs against one in mcpEcho.test.ts; the whole-run
  // budget demo stops by design (tested on its own below).
  const succeeding = readIndex()
    .templates.filter((t) => t.mcpServer === undefined && !STOPPED_BY_RUN_BUDGET.has(t.id))
    .map((t) => t.id)
  it.each(succeeding)('%s runs to success with no node error', async (id) => {
    const run = await runTemplate(doc(id), runner)
    expect(errorsOf(run.events)).toEqual([])
    expect(runFinish(run.events)).toMatchObject({ status: 'success' })
    for (const node of doc(id).nodes.filter((n) => n.type === 'output')) {
      const output = outputOf(run.events, node.id)
      expect(output, node.id).toBeDefined()
      for (const value of Object.values(output ?? {})) expect(String(value).trim()).not.toBe('')
    }
    // Offline: the only requests are for files the site itself serves.
    for (const request of run.requests) expect(request).toMatch(new RegExp(`^GET ${SITE_BASE}data/`))
  })
})

describe('stuck-agent: the loop breaker demo', () => {
  it('hints at the 2nd identical call, trips at the 3rd, and the Output gets the finalized answer', async () => {
    const run = await runTemplate(doc('stuck-agent'), runner)
    const guards = guardsOf(run.events, 'agent')
    expect(guards.map((g) => [g.layer, g.level, g.detector, g.count])).toEqual([
      ['loop', 'hint', 'repeat', 2],
      ['loop', 'trip', 'repeat', 3],
    ])
    expect(guards[0]?.message).toBe(
      '[System Hint: You invoked tool "query_orders" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]',
    )
    expect(guards[1]?.message).toBe(
      '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_orders". Terminating loop to prevent token waste.',
    )
    // The three calls spell the same arguments differently; the third one never ran.
    const calls = toolCalls(run)
    expect(new Set(calls.map((c) => c.args)).size).toBe(3)
    expect(
      calls.map((c) => c.observation.startsWith('Observation: Execution halted by Deadlock Breaker')),
    ).toEqual([false, false, true])
    expect(calls[0]?.observation).toBe('[]')
    const agent = finishOf(run.events, 'agent')
    expect(agent).toMatchObject({ status: 'stopped', output: { stopReason: 'deadlock', iterations: 3 } })
    const finalize = scriptTexts(doc('stuck-agent'), 'agent').at(-1)
    expect(outputOf(run.events, 'answer')).toEqual({ answer: finalize, stopReason: 'deadlock' })
  })

  it('streams visibly yet finishes within a few seconds', async () => {
    const run = await runTemplate(doc('stuck-agent'), runner)
    const chunks = run.events.filter(
      (e) => e.type === 'nodeChunk' && e.nodeId === 'agent' && e.channel === 'output',
    )
    expect(chunks.length).toBeGreaterThan(50)
    expect(run.durationMs).toBeGreaterThan(1_000)
    expect(run.durationMs).toBeLessThan(8_000)
  })
})

describe('alternating-agent: cycle detection', () => {
  it('hints when A-B repeats (4th call) and trips before the third lap (6th call)', async () => {
    const run = await runTemplate(doc('alternating-agent'), runner)
    const guards = guardsOf(run.events, 'agent')
    expect(guards.map((g) => [g.layer, g.level, g.detector])).toEqual([
      ['loop', 'hint', 'cycle'],
      ['loop', 'trip', 'cycle'],
    ])
    const calls = toolCalls(run)
    expect(calls.map((c) => c.name)).toEqual([
      'check_inventory',
      'check_supplier',
      'check_inventory',
      'check_supplier',
      'check_inventory',
      'check_supplier',
    ])
    expect(calls.at(-1)?.observation).toMatch(/^Observation: Execution halted by Deadlock Breaker/)
    expect(finishOf(run.events, 'agent')).toMatchObject({
      status: 'stopped',
      output: { stopReason: 'deadlock' },
    })
    expect(outputOf(run.events, 'answer')?.['answer']).toBe(
      scriptTexts(doc('alternating-agent'), 'agent').at(-1),
    )
  })
})

describe('budget-team: the whole-run budget', () => {
  it('hints at 80 %, trips at the call that crosses it, stops both running agents, skips the rest', async () => {
    const template = doc('budget-team')
    const limit = template.metadata.limits?.maxRunTokens
    expect(limit).toBe(9000)
    const run = await runTemplate(template, runner)
    const guards = run.events.flatMap((e) => (e.type === 'guard' && e.layer === 'budget' ? [e] : []))
    expect(guards.map((g) => [g.scope, g.level, g.unit, g.total, g.budget, g.phase])).toEqual([
      ['run', 'hint', 'tokens', 8000, 9000, 'after-call'],
      ['run', 'trip', 'tokens', 10000, 9000, 'after-call'],
    ])
    expect(guards[1]?.message).toBe(
      '[Run Budget Exceeded] The run has used 10000 tokens, over its budget of 9000 tokens. Stopping the run.',
    )
    // Both agents were mid-run: the trip stops them; the writer and the memo never start.
    const failed = run.events.filter((e) => e.type === 'nodeError').map((e) => [e.nodeId, e.code])
    expect(failed.sort()).toEqual([
      ['critic', 'RUN_BUDGET'],
      ['researcher', 'RUN_BUDGET'],
    ])
    const skipped = run.events.filter((e) => e.type === 'nodeSkipped').map((e) => [e.nodeId, e.reason])
    expect(skipped).toEqual([
      ['writer', 'budget'],
      ['memo', 'budget'],
    ])
    expect(runFinish(run.events)).toMatchObject({
      status: 'stopped',
      stopReason: 'budget',
      usage: { total: 10000 },
    })
    // The sticky note quotes the figures a person will see.
    const note = String(template.nodes.find((n) => n.type === 'note')?.data.config['text'])
    for (const figure of ['9,000', '8,000', '10,000']) expect(note).toContain(figure)
  })

  it('without its limit, the same team runs to the memo', async () => {
    const template = doc('budget-team')
    const unlimited = { ...template, metadata: { ...template.metadata, limits: {} } }
    const run = await runTemplate(unlimited, runner)
    expect(errorsOf(run.events)).toEqual([])
    expect(runFinish(run.events)).toMatchObject({ status: 'success' })
    expect(String(outputOf(run.events, 'memo')?.['memo'])).toContain('six-month trial')
  })
})

describe('budget-burner: the token budget', () => {
  it('stops on the budget and still hands the partial answer downstream', async () => {
    const template = doc('budget-burner')
    const run = await runTemplate(template, runner)
    const budget = template.nodes.find((n) => n.id === 'agent')?.data.config['maxTokenBudget']
    const guards = guardsOf(run.events, 'agent')
    expect(guards).toHaveLength(1)
    expect(guards[0]).toMatchObject({ layer: 'budget', level: 'trip', budget })
    expect(guards[0]?.total).toBeGreaterThanOrEqual(budget as number)
    const agent = finishOf(run.events, 'agent')
    expect(agent).toMatchObject({ status: 'stopped', output: { stopReason: 'budget' } })
    const report = outputOf(run.events, 'report')
    const texts = scriptTexts(template, 'agent')
    // The partial answer is what the paid calls wrote; nothing after the stop.
    expect(report?.['partialReport']).toContain(texts[0])
    expect(report?.['partialReport']).toContain(texts[2])
    expect(report?.['partialReport']).not.toContain(texts[3])
    expect(report?.['stopReason']).toBe('budget')
    expect(Number(report?.['tokens'])).toBe(guards[0]?.total)
    // The sticky note quotes the figure a person will see.
    const note = String(template.nodes.find((n) => n.type === 'note')?.data.config['text'])
    expect(note).toContain((guards[0]?.total ?? 0).toLocaleString('en-US'))
  })
})

describe('research-agent: HTTP tools on files the site serves', () => {
  it('reads both JSON files under the sub-path, then answers without any guard event', async () => {
    const run = await runTemplate(doc('research-agent'), runner)
    expect(run.requests).toEqual([
      `GET ${SITE_BASE}data/meetup/cities.json`,
      `GET ${SITE_BASE}data/meetup/venues.json`,
    ])
    expect(guardsOf(run.events, 'agent')).toEqual([])
    const calls = toolCalls(run)
    expect(calls.map((c) => c.name)).toEqual(['list_cities', 'list_venues'])
    expect(calls[0]?.observation).toContain('Warsaw')
    expect(calls[1]?.observation).toContain('Vistula Works')
    expect(finishOf(run.events, 'agent')).toMatchObject({
      status: 'success',
      output: { stopReason: 'answer' },
    })
    expect(outputOf(run.events, 'answer')?.['answer']).toBe(
      scriptTexts(doc('research-agent'), 'agent').at(-1),
    )
  })
})

describe('js-transform: the Code node in the sandbox', () => {
  it('computes the statistics of the Input CSV and skips the unreadable row', async () => {
    const template = doc('js-transform')
    const run = await runTemplate(template, runner)
    const csv = String(
      template.nodes.find((n) => n.id === 'sales')?.data.config['values'] !== undefined
        ? (template.nodes.find((n) => n.id === 'sales')?.data.config['values'] as Record<string, string>)[
            'csv'
          ]
        : '',
    )
    // An independent reading of the same CSV to compare with.
    const rows = csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
    const valid = rows.filter((cells) => Number.isFinite(Number(cells[2])))
    const revenue = valid.reduce((sum, cells) => sum + Number(cells[2]) * Number(cells[3]), 0)
    const result = outputOf(run.events, 'stats')?.['result'] as Record<string, unknown>
    expect(result['rows']).toBe(valid.length)
    expect(result['skipped']).toBe(rows.length - valid.length)
    expect(result['revenue']).toBeCloseTo(revenue, 2)
    expect(outputOf(run.events, 'stats')?.['logs']).toEqual([
      `parsed ${rows.length} rows, skipped ${rows.length - valid.length}`,
    ])
    const summary = String(outputOf(run.events, 'report')?.['summary'])
    expect(summary).toContain(`${valid.length} orders`)
    expect(summary).not.toContain('{{')
  })
})

describe('llm-chain: draft, critique, polish', () => {
  it('feeds each reply into the next prompt and ends with the polished text', async () => {
    const template = doc('llm-chain')
    const run = await runTemplate(template, runner)
    const [draft] = scriptTexts(template, 'draft')
    const [critique] = scriptTexts(template, 'critique')
    const [polish] = scriptTexts(template, 'polish')
    expect(outputOf(run.events, 'draft')?.['response']).toBe(draft)
    expect(String(outputOf(run.events, 'critique_prompt')?.['text'])).toContain(draft)
    const polishPrompt = String(outputOf(run.events, 'polish_prompt')?.['text'])
    expect(polishPrompt).toContain(draft)
    expect(polishPrompt).toContain(critique)
    expect(outputOf(run.events, 'result')).toEqual({ final: polish, critique })
  })
})

describe('repeating-writer: the repetitive-text guard', () => {
  it('stops the looping stream, keeps its start and hands the text so far to the Summary', async () => {
    const run = await runTemplate(doc('repeating-writer'), runner)
    const guards = guardsOf(run.events, 'writer')
    expect(guards.map((g) => [g.nodeId, g.layer, g.level, g.detector])).toEqual([
      ['writer', 'loop', 'trip', 'content'],
    ])
    expect(finishOf(run.events, 'writer')).toMatchObject({ status: 'stopped' })
    const response = String(outputOf(run.events, 'writer')?.['response'])
    const scripted = scriptTexts(doc('repeating-writer'), 'writer')[0] ?? ''
    expect(outputOf(run.events, 'writer')).toMatchObject({ stopReason: 'degenerate' })
    expect(response.length).toBeLessThan(scripted.length / 2)
    expect(scripted.startsWith(response)).toBe(true)
    expect(outputOf(run.events, 'summary')).toEqual({ summary: response })
  })
})

describe('answer-from-docs: answers from its bundled help pages, offline', () => {
  it('finds the returns page first for the refund question and cites it in the Output', async () => {
    const run = await runTemplate(doc('answer-from-docs'), runner)
    expect(errorsOf(run.events)).toEqual([])
    const hits = outputOf(run.events, 'search')?.['results'] as Array<{ text: string; source: string }>
    const bundled = ['shipping.md', 'returns.md', 'warranty.html', 'zh-faq.md']
    expect(hits.length).toBeGreaterThan(0)
    expect(hits[0]?.source).toBe('returns.md')
    expect(hits[0]?.text).toContain('within 14 days')
    for (const hit of hits) expect(bundled).toContain(hit.source)
    const sources = String(outputOf(run.events, 'result')?.['sources'])
    expect(sources).toMatch(/^\[1\] returns\.md \(score \d\.\d\d\)\n# Returns and refunds/)
    // The documents come from the site's own files, nothing else is asked for.
    for (const request of run.requests) expect(request).toMatch(new RegExp(`^GET ${SITE_BASE}data/`))
  })
})
