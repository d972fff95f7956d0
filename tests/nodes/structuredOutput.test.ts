import { describe, expect, it } from 'vitest'
import { STRUCTURED_OUTPUT_NAME } from '../../src/engine/run.ts'
import { createDemoProvider } from '../../src/providers/demo.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider } from '../support/scriptedProvider.ts'
import { consoleOf, outputOf, runWithClock } from './runNodes.ts'

const schema = {
  type: 'object',
  properties: {
    intent: { type: 'string', enum: ['refund', 'question'] },
    urgency: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['intent', 'urgency'],
  additionalProperties: false,
}

const doc = (type: 'llm' | 'agent', output: Record<string, unknown>) =>
  flow()
    .node('in', 'input', { values: { ticket: 'My order broke, refund please' } })
    .node('m', type, { prompt: 'Classify: {{in.ticket}}', output })
    .node('t', 'template', { template: '{{m.data.intent}} at {{m.data.urgency}}' })
    .edge('in', 'm')
    .edge('m', 't')
    .build()

describe('structured output on the llm node', () => {
  it('asks natively, streams the JSON as it comes and outputs data a template can read', async () => {
    const clock = new ManualClock()
    const provider = scriptedProvider(
      [{ text: '{"intent":"refund","urgency":4}', usage: { prompt: 10, completion: 8 } }],
      { clock, chunkSize: 6, structuredOutput: 'native' },
    )
    const { ctx } = testContext({ clock, provider })
    const events = await runWithClock(doc('llm', { schema, repairAttempts: 2 }), ctx, clock)
    expect(provider.requests[0]?.responseFormat).toEqual({
      name: STRUCTURED_OUTPUT_NAME,
      schema,
      strict: true,
    })
    const chunks = ofType(events, 'nodeChunk').filter((e) => e.nodeId === 'm' && e.channel === 'output')
    expect(chunks.map((c) => c.text)).toEqual(['{"inte', 'nt":"r', 'efund"', ',"urge', 'ncy":4', '}'])
    expect(outputOf(events, 'm')).toMatchObject({
      data: { intent: 'refund', urgency: 4 },
      response: '{"intent":"refund","urgency":4}',
      usage: { prompt: 10, completion: 8, total: 18, estimated: false },
      attempts: 1,
    })
    expect(outputOf(events, 't')).toEqual({ text: 'refund at 4' })
  })

  it('puts the schema into the prompt for a provider that cannot ask natively', async () => {
    const provider = scriptedProvider([{ text: '```json\n{"intent":"question","urgency":2}\n```' }])
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc('llm', { schema }), ctx, clock)
    const request = provider.requests[0]
    expect(request?.responseFormat).toBeUndefined()
    expect(request?.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining(JSON.stringify(schema)),
    })
    expect(outputOf(events, 'm')).toMatchObject({ data: { intent: 'question', urgency: 2 }, attempts: 1 })
  })

  it('asks again with the validation problems until the reply fits, and sums the usage', async () => {
    const provider = scriptedProvider(
      [
        { text: 'Sure! It is a refund.', usage: { prompt: 5, completion: 5 } },
        { text: '{"intent":"refund","urgency":9}', usage: { prompt: 7, completion: 6 } },
        { text: '{"intent":"refund","urgency":5}', usage: { prompt: 9, completion: 6 } },
      ],
      { structuredOutput: 'native' },
    )
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc('llm', { schema, repairAttempts: 2 }), ctx, clock)
    expect(provider.requests).toHaveLength(3)
    const second = provider.requests[1]?.messages ?? []
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Sure! It is a refund.' })
    expect(second.at(-1)?.content).toMatch(/not JSON/)
    const third = provider.requests[2]?.messages ?? []
    expect(third.at(-1)?.content).toContain('data.urgency must be <= 5')
    expect(provider.requests[2]?.responseFormat?.name).toBe(STRUCTURED_OUTPUT_NAME)
    expect(outputOf(events, 'm')).toMatchObject({
      data: { intent: 'refund', urgency: 5 },
      attempts: 3,
      usage: { prompt: 21, completion: 17, total: 38 },
    })
    expect(consoleOf(events, 'm', 'log')).toMatch(
      /Attempt 2 does not fit the schema \(data.urgency must be <= 5\)/,
    )
  })

  it('fails with the last problems in the message and the raw reply in details.raw', async () => {
    const provider = scriptedProvider([{ text: '{"intent":"cancel"}' }], { structuredOutput: 'native' })
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc('llm', { schema, repairAttempts: 1 }), ctx, clock)
    expect(provider.requests).toHaveLength(2)
    const error = ofType(events, 'nodeError').find((e) => e.nodeId === 'm')
    expect(error?.code).toBe('STRUCTURED_OUTPUT_INVALID')
    expect(error?.message).toContain('after 2 attempts')
    expect(error?.message).toContain('data.urgency is required')
    expect(error?.message).toContain('data.intent must be one of "refund", "question"')
    expect(error?.details).toEqual({ raw: '{"intent":"cancel"}' })
    expect(ofType(events, 'nodeSkipped').map((e) => e.nodeId)).toEqual(['t'])
  })

  it('with repairAttempts 0 fails on the first reply that does not fit', async () => {
    const provider = scriptedProvider([{ text: '[]' }])
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc('llm', { schema, repairAttempts: 0 }), ctx, clock)
    expect(provider.requests).toHaveLength(1)
    expect(ofType(events, 'nodeError')[0]?.message).toContain('data must be object, not array')
  })

  it('the demo provider answers a schema offline, so the flow runs without a key', async () => {
    const clock = new ManualClock()
    const { ctx } = testContext({ clock, provider: { resolve: async () => createDemoProvider({ clock }) } })
    const events = await runWithClock(doc('llm', { schema }), ctx, clock)
    expect(outputOf(events, 't')).toEqual({ text: 'refund at 1' })
  })
})

describe('structured output on the agent node', () => {
  it('takes the loop answer as the first attempt and repairs it with a plain call', async () => {
    const provider = scriptedProvider(
      [{ text: 'It is a refund, quite urgent.' }, { text: '{"intent":"refund","urgency":3}' }],
      { structuredOutput: 'native' },
    )
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc('agent', { schema, repairAttempts: 1 }), ctx, clock)
    expect(provider.requests[0]?.messages[0]?.content).toContain(JSON.stringify(schema))
    expect(provider.requests[1]?.tools).toBeUndefined()
    expect(provider.requests[1]?.responseFormat?.schema).toEqual(schema)
    expect(outputOf(events, 'm')).toMatchObject({ data: { intent: 'refund', urgency: 3 }, attempts: 2 })
    expect(outputOf(events, 't')).toEqual({ text: 'refund at 3' })
  })
})
