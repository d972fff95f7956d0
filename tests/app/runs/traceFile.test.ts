/** A saved run's record as the History tab's trace file: node types from its snapshot, content opt-in, no keys. */
import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../../src/engine/run.ts'
import { traceFileName, traceFileOf } from '../../../src/app/runs/traceFile.ts'
import type { RunRecord } from '../../../src/storage/rows.ts'
import { flow, testContext } from '../../support/flowBuilders.ts'
import { ManualClock } from '../../support/manualClock.ts'
import { scriptedProvider } from '../../support/scriptedProvider.ts'
import { runWithClock } from '../../nodes/runNodes.ts'

const SECRET = 'sk-tracefile-0123456789'

async function savedRun(): Promise<RunRecord> {
  const clock = new ManualClock()
  const provider = scriptedProvider([{ text: `Hello (${SECRET})`, usage: { prompt: 5, completion: 3 } }], {
    clock,
  })
  const doc = flow()
    .node('in', 'input', { values: { q: 'hi' } })
    .node('ask', 'llm', { prompt: 'Answer {{in.q}}', model: 'gpt-test' })
    .chain('in', 'ask')
    .build()
  const { ctx } = testContext({ clock, provider })
  const events: RunEvent[] = await runWithClock(doc, ctx, clock)
  return {
    id: 'run_abc/1',
    flowId: doc.metadata.id,
    startedAt: 0,
    finishedAt: 1,
    status: 'success',
    inputs: {},
    outputs: {},
    events,
    usage: { prompt: 5, completion: 3, total: 8, estimated: false },
    timings: {},
    flow: { ...doc, metadata: { ...doc.metadata, name: 'Greeter' } },
  }
}

type Span = {
  name: string
  parentSpanId?: string
  spanId: string
  attributes: { key: string; value: unknown }[]
}

function spansOf(text: string): Span[] {
  return JSON.parse(text).resourceSpans[0].scopeSpans[0].spans as Span[]
}

describe('traceFileOf', () => {
  it('names node types from the snapshot, links spans, leaves content out by default and never holds keys', async () => {
    const record = await savedRun()
    const text = traceFileOf(record, { content: false, secrets: [SECRET] })
    expect(text).not.toContain(SECRET)
    const spans = spansOf(text)
    const run = spans.find((s) => s.parentSpanId === undefined || s.parentSpanId === '')
    expect(run?.name).toContain('Greeter')
    const ask = spans.find((s) =>
      s.attributes.some((a) => a.key === 'wardflow.node.id' && JSON.stringify(a.value).includes('ask')),
    )
    expect(ask?.attributes.find((a) => a.key === 'wardflow.node.type')?.value).toEqual({ stringValue: 'llm' })
    expect(ask?.parentSpanId).toBe(run?.spanId)
    const call = spans.find((s) => s.parentSpanId === ask?.spanId)
    expect(call?.attributes.find((a) => a.key === 'gen_ai.request.model')?.value).toEqual({
      stringValue: 'gpt-test',
    })
    expect(text).not.toContain('Hello')
    const full = traceFileOf(record, { content: true, secrets: [SECRET] })
    expect(full).toContain('Hello')
    expect(full).not.toContain(SECRET)
    expect(traceFileName(record)).toBe('wardflow-trace-run_abc_1.json')
  })
})
