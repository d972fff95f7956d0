/** A real run's events as an OTLP trace: shape, parent links, nesting of times, content opt-in, no keys. */
import { describe, expect, it } from 'vitest'
import { FlowError, type FlowDocument, type RunEvent } from '../../../src/engine/run.ts'
import { runToOtlp } from '../../../src/engine/trace/otlp.ts'
import { fakeCodeRunner } from '../../support/fakeCodeRunner.ts'
import { flow, testContext } from '../../support/flowBuilders.ts'
import { ManualClock } from '../../support/manualClock.ts'
import { parentName, readTrace } from '../../support/otlpCheck.ts'
import { scriptedProvider } from '../../support/scriptedProvider.ts'
import { runWithClock } from '../../nodes/runNodes.ts'

const SECRET = 'sk-trace-test-0123456789'

function traceFlow(): FlowDocument {
  const doc = flow()
    .node('in', 'input', { values: { q: `pending orders (key ${SECRET})` } })
    .node('items', 'template', { template: '["a","b"]' })
    .node('each', 'loop', { mode: 'forEach', items: '{{items.text}}' })
    .node('ask', 'llm', { prompt: 'Say {{each.item}}', model: 'gpt-test' })
    .node('agent', 'agent', {
      prompt: 'How many {{in.q}} are there?',
      model: 'gpt-agent',
      tools: [
        {
          name: 'query_db',
          description: 'Query the orders table',
          parameters: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
          kind: 'code',
          code: 'return []',
        },
      ],
    })
    .node('out', 'output', { values: { answer: '{{agent.response}}' } })
    .chain('in', 'items', 'each', 'agent', 'out')
    .build()
  for (const node of doc.nodes) if (node.id === 'ask') node.parentId = 'each'
  return doc
}

async function runTraceFlow(): Promise<RunEvent[]> {
  const clock = new ManualClock()
  const provider = scriptedProvider(
    [
      { text: 'A!', usage: { prompt: 7, completion: 2 }, model: 'gpt-test-0601' },
      { text: 'B!', usage: { prompt: 7, completion: 2 } },
      {
        toolCalls: [{ name: 'query_db', arguments: '{"status":"pending"}' }],
        usage: { prompt: 50, completion: 10 },
      },
      { text: 'There are none.', usage: { prompt: 80, completion: 5 } },
    ],
    { clock },
  )
  const codeRunner = fakeCodeRunner(() => ({ rows: [] }))
  const { ctx } = testContext({ clock, provider, codeRunner })
  return runWithClock(traceFlow(), ctx, clock)
}

const nodeTypes = Object.fromEntries(traceFlow().nodes.map((n) => [n.id, n.type]))

describe('run events -> OTLP JSON', () => {
  it('has one span per run, node, model call and tool call, each under the one it ran in', async () => {
    const events = await runTraceFlow()
    expect(events.filter((e) => e.type === 'modelCall')).toHaveLength(4)
    expect(events.filter((e) => e.type === 'toolCall')).toHaveLength(1)
    const trace = runToOtlp(events, { nodeTypes, flowName: 'Orders' })
    // What a collector receives is the JSON text.
    const spans = readTrace(JSON.parse(JSON.stringify(trace)))
    const names = spans.map((s) => s.name)
    expect(names[0]).toBe('run Orders')
    const byName = (name: string) => spans.filter((s) => s.name === name)
    // Nodes under the run, the loop's body under the loop, once per iteration.
    for (const id of ['in', 'items', 'each', 'agent', 'out']) {
      expect(byName(`node ${id}`)).toHaveLength(1)
      expect(parentName(spans, byName(`node ${id}`)[0]!)).toBe('run Orders')
    }
    const asks = byName('node ask')
    expect(asks.map((s) => s.attributes['wardflow.loop.iteration'])).toEqual([0, 1])
    expect(asks.every((s) => parentName(spans, s) === 'node each')).toBe(true)
    const agent = byName('node agent')[0]!
    expect(agent.attributes).toMatchObject({ 'wardflow.node.id': 'agent', 'wardflow.node.type': 'agent' })
    expect(asks[0]!.attributes['wardflow.node.type']).toBe('llm')
    // Model calls: GenAI semantic conventions, client spans under their node.
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')
    expect(chats).toHaveLength(4)
    expect(chats.every((s) => s.kind === 3 && s.status.code === 1)).toBe(true)
    expect(chats.map((s) => parentName(spans, s))).toEqual([
      'node ask',
      'node ask',
      'node agent',
      'node agent',
    ])
    expect(chats[0]!.name).toBe('chat gpt-test')
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.system': 'scripted',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-0601',
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 2,
    })
    expect(chats[3]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 80,
      'gen_ai.usage.output_tokens': 5,
    })
    const tools = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool')
    expect(tools.map((s) => [s.name, parentName(spans, s), s.attributes['gen_ai.tool.name']])).toEqual([
      ['execute_tool query_db', 'node agent', 'query_db'],
    ])
    // The tool ran after the first agent call ended and before the second started.
    expect(tools[0]!.start >= chats[2]!.end && tools[0]!.end <= chats[3]!.start).toBe(true)
    const run = spans[0]!
    expect(run.attributes).toMatchObject({
      'wardflow.run.status': 'success',
      'gen_ai.usage.input_tokens': 144,
    })
  })

  it('carries prompts, replies and tool results only when asked to, and never a secret', async () => {
    const events = await runTraceFlow()
    const without = JSON.stringify(runToOtlp(events, { nodeTypes, secrets: [SECRET] }))
    expect(without).not.toContain('How many pending orders')
    expect(without).not.toContain('There are none.')
    expect(without).not.toContain('"rows"')
    expect(without).not.toContain('gen_ai.input.messages')
    expect(without).not.toContain(SECRET)

    const withContent = runToOtlp(events, { nodeTypes, secrets: [SECRET], content: true })
    const text = JSON.stringify(withContent)
    expect(text).not.toContain(SECRET)
    expect(text).toContain('[redacted]')
    const spans = readTrace(withContent)
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')
    const input = JSON.parse(chats[2]!.attributes['gen_ai.input.messages'] as string) as Array<{
      role: string
      content: string
    }>
    expect(input.at(-1)).toEqual({
      role: 'user',
      content: 'How many pending orders (key [redacted]) are there?',
    })
    const output = JSON.parse(chats[3]!.attributes['gen_ai.output.messages'] as string) as Array<{
      text: string
    }>
    expect(output[0]!.text).toBe('There are none.')
    const tool = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool')!
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"status":"pending"}')
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('{"rows":[]}')
  })

  it('ends the spans of an interrupted run at its last event, and the same run gives the same ids', async () => {
    const events = await runTraceFlow()
    const cut = events.slice(0, events.findIndex((e) => e.type === 'toolCall') + 1)
    const trace = runToOtlp(cut, { nodeTypes, status: 'interrupted' })
    const spans = readTrace(trace)
    expect(spans[0]!.attributes['wardflow.run.status']).toBe('interrupted')
    expect(spans[0]!.status.code).toBe(0)
    const agent = spans.find((s) => s.name === 'node agent')!
    expect(agent.end).toBe(BigInt(cut.at(-1)!.at) * 1_000_000n)
    expect(JSON.stringify(runToOtlp(cut, { nodeTypes, status: 'interrupted' }))).toBe(JSON.stringify(trace))
    const other = runToOtlp(
      cut.map((e) => ({ ...e, runId: 'another' })),
      { nodeTypes },
    )
    expect(other.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId).not.toBe(
      trace.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId,
    )
  })

  it('marks failed nodes, failed calls and the failed run as errors', async () => {
    const clock = new ManualClock()
    const stuck = { toolCalls: [{ name: 'query_db', arguments: '{"status":"x"}' }] }
    const provider = scriptedProvider(
      [
        { text: 'A' },
        { error: new FlowError('PROVIDER_SERVER', 'The provider answered 500.') },
        stuck,
        stuck,
        stuck,
        { text: 'Gave up.' },
      ],
      { clock },
    )
    const { ctx } = testContext({ clock, provider, codeRunner: fakeCodeRunner(() => []) })
    const events = await runWithClock(traceFlow(), ctx, clock)
    const spans = readTrace(runToOtlp(events, { nodeTypes }))
    const asks = spans.filter((s) => s.name === 'node ask')
    expect(asks.map((s) => s.status.code)).toEqual([1, 2])
    expect(asks[1]!.attributes['error.type']).toBe('PROVIDER_SERVER')
    const failedCall = spans.find((s) => s.parentSpanId === asks[1]!.spanId)!
    expect(failedCall.attributes['error.type']).toBe('PROVIDER_SERVER')
    expect(failedCall.status.code).toBe(2)
    expect(spans[0]!.status.code).toBe(2)
  })

  it('puts guard alerts on the node span as span events', async () => {
    const clock = new ManualClock()
    const stuck = { toolCalls: [{ name: 'query_db', arguments: '{"status":"x"}' }] }
    const provider = scriptedProvider(
      [{ text: 'A' }, { text: 'B' }, stuck, stuck, stuck, { text: 'Gave up.' }],
      {
        clock,
      },
    )
    const { ctx } = testContext({ clock, provider, codeRunner: fakeCodeRunner(() => []) })
    const events = await runWithClock(traceFlow(), ctx, clock)
    const spans = readTrace(runToOtlp(events, { nodeTypes }))
    const agent = spans.find((s) => s.name === 'node agent')!
    expect(
      agent.events.map((e) => [
        e.name,
        e.attributes['wardflow.guard.level'],
        e.attributes['wardflow.guard.detector'],
      ]),
    ).toEqual([
      ['wardflow.guard', 'hint', 'repeat'],
      ['wardflow.guard', 'trip', 'repeat'],
    ])
  })
})
