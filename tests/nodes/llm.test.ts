import { describe, expect, it } from 'vitest'
import { FlowError, runFlow, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider } from '../support/scriptedProvider.ts'
import { consoleOf, outputOf, runWithClock } from './runNodes.ts'

const doc = (config: Record<string, unknown>) =>
  flow()
    .node('in', 'input', { values: { topic: 'owls' } })
    .node('llm', 'llm', { model: 'gpt-test', prompt: 'Tell me about {{in.topic}}.', ...config })
    .edge('in', 'llm')
    .build()

describe('llm node', () => {
  it('sends the resolved prompts and settings, streams text chunk by chunk and outputs the reply', async () => {
    const clock = new ManualClock()
    const provider = scriptedProvider(
      [{ text: 'Owls are birds.', usage: { prompt: 12, completion: 5 }, model: 'gpt-test-0613' }],
      {
        clock,
        chunkSize: 5,
      },
    )
    const { ctx } = testContext({ clock, provider })
    const events = await runWithClock(
      doc({
        systemPrompt: 'You like {{in.topic}}.',
        temperature: 0.2,
        maxTokens: 99,
        stream: false,
        provider: 'openai',
      }),
      ctx,
      clock,
    )
    expect(provider.requests).toEqual([
      {
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'You like owls.' },
          { role: 'user', content: 'Tell me about owls.' },
        ],
        temperature: 0.2,
        maxTokens: 99,
        stream: false,
      },
    ])
    expect(provider.resolved).toEqual([{ providerId: 'openai', nodeId: 'llm', demoScript: undefined }])
    const chunks = ofType(events, 'nodeChunk').filter((e) => e.nodeId === 'llm')
    expect(chunks.map((c) => c.text)).toEqual(['Owls ', 'are b', 'irds.'])
    expect(outputOf(events, 'llm')).toEqual({
      response: 'Owls are birds.',
      usage: { prompt: 12, completion: 5, total: 17, estimated: false },
      model: 'gpt-test-0613',
      finishReason: 'stop',
    })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', usage: { total: 17, estimated: false } })
  })

  it('asks for the default provider when none is named and passes the inline demo script', async () => {
    const provider = scriptedProvider([{ text: 'ok' }])
    const { ctx, clock } = testContext({ provider })
    const script = { format: 'wardflow.demo-script', version: 1, replies: [{ text: 'hi' }] }
    await runWithClock(doc({ provider: '', demoScript: script }), ctx, clock)
    expect(provider.resolved[0]).toEqual({ providerId: undefined, nodeId: 'llm', demoScript: script })
  })

  it('estimates usage with the tokenizer when the provider reports none, and says so', async () => {
    const provider = scriptedProvider([{ text: 'Twelve chars', usage: null }])
    const { ctx, clock } = testContext({ provider, estimateTokens: async (text) => text.length })
    const events = await runWithClock(doc({}), ctx, clock)
    const usage = {
      prompt: 'Tell me about owls.'.length,
      completion: 12,
      total: 'Tell me about owls.'.length + 12,
      estimated: true,
    }
    expect(outputOf(events, 'llm')?.['usage']).toEqual(usage)
    expect(events.at(-1)).toMatchObject({ usage })
  })

  it('streams reasoning on its own channel, apart from the answer', async () => {
    const provider = scriptedProvider([
      { reasoning: 'Think...', text: 'Answer', usage: { prompt: 1, completion: 1 } },
    ])
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(doc({}), ctx, clock)
    expect(consoleOf(events, 'llm', 'reasoning')).toBe('Think...')
    expect(consoleOf(events, 'llm', 'output')).toBe('Answer')
    expect(outputOf(events, 'llm')?.['response']).toBe('Answer')
  })

  it('fails the node with the provider error code and skips what depends on it', async () => {
    const provider = scriptedProvider([
      { error: new FlowError('PROVIDER_AUTH', 'The API key was refused (401).') },
    ])
    const { ctx, clock } = testContext({ provider })
    const events = await runWithClock(
      flow()
        .node('llm', 'llm', { prompt: 'x' })
        .node('out', 'output', { values: { a: '{{llm.response}}' } })
        .edge('llm', 'out')
        .build(),
      ctx,
      clock,
    )
    expect(ofType(events, 'nodeError')[0]).toMatchObject({
      nodeId: 'llm',
      code: 'PROVIDER_AUTH',
      message: 'The API key was refused (401).',
    })
    expect(ofType(events, 'nodeSkipped').map((e) => e.nodeId)).toEqual(['out'])
  })

  it('stops mid-stream when the run is stopped', async () => {
    const clock = new ManualClock()
    const provider = scriptedProvider([{ text: 'a very long answer that takes a while', delayMs: 100 }], {
      clock,
      chunkSize: 2,
    })
    const { ctx, controller } = testContext({ clock, provider })
    const events: RunEvent[] = []
    const done = (async () => {
      for await (const e of runFlow(doc({}), engineRegistry, ctx)) events.push(e)
    })()
    await clock.advance(250)
    controller.abort()
    await done
    expect(consoleOf(events, 'llm')).toBe('a ve')
    expect(ofType(events, 'nodeError')[0]).toMatchObject({ nodeId: 'llm', code: 'CANCELLED' })
    expect(events.at(-1)).toMatchObject({ status: 'cancelled' })
    expect(clock.pendingSleeps).toBe(0)
  })
})
