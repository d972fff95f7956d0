/**
 * A run's events as a cassette (cassette/fromRun.ts): a real run of LLM, structured LLM and
 * Agent nodes against the scripted provider, converted and replayed through the real Player,
 * gives the same outputs, and every call is keyed exactly as the Recorder keys it.
 */
import { describe, expect, it } from 'vitest'
import { cassetteFromRun } from '../../src/cassette/fromRun.ts'
import { OutcomeCollector } from '../../src/cassette/outcome.ts'
import { Player, Recorder } from '../../src/cassette/tape.ts'
import { expectationDifferences } from '../../src/cassette/diff.ts'
import { parseStoredEvents } from '../../src/app/runs/runEventSchema.ts'
import type { ModelCallEvent, RunEvent } from '../../src/engine/run.ts'
import { cassetteFlow, isOut, playerCtx, runOnce, scriptedCtx } from '../support/cassetteRun.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { scriptedProvider } from '../support/scriptedProvider.ts'

function outcomeOf(events: readonly RunEvent[]) {
  const collector = new OutcomeCollector(isOut)
  for (const event of events) collector.push(event)
  return collector.expectation()
}

describe('cassetteFromRun', () => {
  it('keys every call as the recorder does and replays the run to the same outputs', async () => {
    const doc = cassetteFlow()
    const recorder = new Recorder()
    const events = await runOnce(doc, (clock) => scriptedCtx(clock, recorder))
    expect(ofType(events, 'runFinish')[0]?.status).toBe('success')
    const { cassette, inexactCalls } = cassetteFromRun({ events, inputs: {}, isOutputNode: isOut })
    expect(inexactCalls).toBe(0)
    const recorded = recorder.cassette({}).calls
    expect(cassette.calls).toHaveLength(4)
    const keys = (calls: typeof recorded) => calls.map((c) => JSON.stringify(c.request)).sort()
    expect(keys(cassette.calls)).toEqual(keys(recorded))
    // The Agent's tools are keyed in full and the structured call with its native format.
    const requests = cassette.calls.map((c) => c.request as unknown as Record<string, unknown>)
    expect(requests.some((r) => JSON.stringify(r['tools'] ?? null).includes('Query the orders table'))).toBe(
      true,
    )
    expect(requests.some((r) => r['responseFormat'] !== undefined)).toBe(true)
    expect(cassette.calls.map((c) => c.kind === 'model' && c.structuredOutput)).toEqual(
      recorded.map((c) => c.kind === 'model' && c.structuredOutput),
    )

    const replayed = await runOnce(doc, (clock) =>
      playerCtx(clock, new Player(cassette, 'run.cassette.json')),
    )
    expect(ofType(replayed, 'nodeError')).toEqual([])
    expect(cassette.expected?.outputs).toEqual({ answer: 'There are none.', draft: 'open orders' })
    expect(expectationDifferences(cassette.expected!, outcomeOf(replayed))).toEqual([])
    // The estimated usage of the reply without usage counts its reasoning, as in the run.
    const agentOut = (list: RunEvent[]) =>
      ofType(list, 'nodeFinish').find((e) => e.nodeId === 'agent')?.output['usage']
    expect(agentOut(replayed)).toEqual(agentOut(events))
  })

  it('converts the events as IndexedDB gives them back', async () => {
    const doc = cassetteFlow()
    const events = await runOnce(doc, (clock) => scriptedCtx(clock))
    const stored = parseStoredEvents(JSON.parse(JSON.stringify(events)) as unknown[])
    const { cassette } = cassetteFromRun({ events: stored, inputs: { q: 'x' }, isOutputNode: isOut })
    expect(cassette.inputs).toEqual({ q: 'x' })
    const replayed = await runOnce(doc, (clock) =>
      playerCtx(clock, new Player(cassette, 'run.cassette.json')),
    )
    expect(expectationDifferences(cassette.expected!, outcomeOf(replayed))).toEqual([])
  })

  it('keys a call saved before events kept replay from what it has, and counts it', async () => {
    const doc = flow()
      .node('llm', 'llm', { provider: 'work', model: 'm', prompt: 'Hi' })
      .node('out', 'output', { values: { a: '{{llm.response}}' } })
      .chain('llm', 'out')
      .build()
    const events = await runOnce(doc, (clock) => {
      const { ctx } = testContext({
        clock,
        provider: scriptedProvider([{ text: 'hello', usage: { prompt: 1, completion: 1 } }], { clock }),
      })
      return ctx
    })
    const old = events.map((e) => {
      if (e.type !== 'modelCall') return e
      const { replay: _gone, ...rest } = e
      return rest as ModelCallEvent
    })
    const { cassette, inexactCalls } = cassetteFromRun({
      events: old,
      inputs: {},
      isOutputNode: isOut,
      providerOf: (id) => (id === 'llm' ? 'work' : undefined),
    })
    expect(inexactCalls).toBe(1)
    expect(cassette.calls[0]?.request).toMatchObject({ provider: 'work', model: 'm' })
    const replayed = await runOnce(doc, (clock) =>
      playerCtx(clock, new Player(cassette, 'old.cassette.json')),
    )
    expect(outcomeOf(replayed).outputs).toEqual({ a: 'hello' })
  })

  it('replays a reply the degenerate-text guard cut short to the same stop and guard', async () => {
    const looping = `Here is the summary. ${'The report says revenue grew in every region this year. '.repeat(100)}`
    const doc = flow()
      .node('llm', 'llm', { model: 'm', prompt: 'Summarise the report.' })
      .node('out', 'output', { values: { a: '{{llm.response}}' } })
      .chain('llm', 'out')
      .build()
    const events = await runOnce(doc, (clock) => {
      const provider = scriptedProvider([{ text: looping, usage: null }], { clock, chunkSize: 20 })
      return testContext({ clock, provider }).ctx
    })
    const { cassette } = cassetteFromRun({ events, inputs: {}, isOutputNode: isOut })
    expect(cassette.calls[0]).not.toHaveProperty('error')
    expect(cassette.expected?.guards).toHaveLength(1)
    const replayed = await runOnce(doc, (clock) =>
      playerCtx(clock, new Player(cassette, 'cut.cassette.json')),
    )
    expect(expectationDifferences(cassette.expected!, outcomeOf(replayed))).toEqual([])
  })

  it('leaves out calls the budget refused and keeps a failure with its code', () => {
    const base = { runId: 'r', at: 2, nodeId: 'n', startedAt: 1, provider: 'p', model: 'm' }
    const request = { messages: [{ role: 'user' as const, content: 'q' }] }
    const events: RunEvent[] = [
      { ...base, type: 'modelCall', request, error: 'RUN_BUDGET', replay: { providerId: '' } },
      {
        ...base,
        type: 'modelCall',
        request,
        error: 'PROVIDER_SERVER',
        reply: { text: 'par', toolCalls: [] },
        replay: { providerId: '' },
      },
    ]
    const { cassette } = cassetteFromRun({ events, inputs: {}, isOutputNode: isOut })
    expect(cassette.calls).toHaveLength(1)
    expect(cassette.calls[0]).toMatchObject({
      kind: 'model',
      chunks: [{ type: 'text', text: 'par' }],
      error: { code: 'PROVIDER_SERVER' },
    })
  })
})
