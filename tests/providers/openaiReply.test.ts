import { describe, expect, it } from 'vitest'
import { OpenAiStream, parseOpenAiReply } from '../../src/providers/openaiReply.ts'
import { FlowError } from '../../src/engine/index.ts'

const target = { label: 'Test', model: 'm', url: 'http://x/v1/chat/completions' }

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })
}

function thrown(fn: () => unknown): FlowError {
  try {
    fn()
  } catch (error) {
    if (error instanceof FlowError) return error
  }
  throw new Error('expected a FlowError')
}

describe('OpenAiStream', () => {
  it('fails with PROVIDER_BAD_RESPONSE when no line of the stream is understood', () => {
    const stream = new OpenAiStream(target, 'm', 'call_')
    stream.push('<html>not a stream</html>')
    stream.push('{broken')
    stream.push('[DONE]')
    const error = thrown(() => stream.finish())
    expect(error.code).toBe('PROVIDER_BAD_RESPONSE')
    expect(error.message).toContain('<html>')
  })

  it('assembles tool calls sent without an index (matched by id, else continuing the last call)', () => {
    const stream = new OpenAiStream(target, 'm', 'call_')
    stream.push(chunk({ tool_calls: [{ id: 'a', function: { name: 'first', arguments: '{"x"' } }] }))
    stream.push(chunk({ tool_calls: [{ function: { arguments: ':1}' } }] }))
    stream.push(
      chunk({ tool_calls: [{ id: 'b', function: { name: 'second', arguments: '{}' } }] }, 'tool_calls'),
    )
    expect(stream.finish().toolCalls).toEqual([
      { id: 'a', name: 'first', arguments: '{"x":1}' },
      { id: 'b', name: 'second', arguments: '{}' },
    ])
  })

  it('starts a new call when a server reuses index 0 with a new id', () => {
    const stream = new OpenAiStream(target, 'm', 'call_')
    stream.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: '{}' } }] }))
    stream.push(
      chunk(
        { tool_calls: [{ index: 0, id: 'b', function: { name: 'two', arguments: '{}' } }] },
        'tool_calls',
      ),
    )
    expect(stream.finish().toolCalls.map((call) => call.name)).toEqual(['one', 'two'])
  })

  it('does not double a tool name that a server repeats in every delta, and invents missing ids', () => {
    const stream = new OpenAiStream(target, 'm', 'call_x_')
    stream.push(chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"q":' } }] }))
    stream.push(
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '"a"}' } }] }, 'stop'),
    )
    expect(stream.finish().toolCalls).toEqual([{ id: 'call_x_0', name: 'lookup', arguments: '{"q":"a"}' }])
  })

  it('keeps the model the server names and defaults the finish reason', () => {
    const stream = new OpenAiStream(target, 'asked', 'c')
    stream.push(JSON.stringify({ model: 'served-model', choices: [{ delta: { content: 'hi' } }] }))
    stream.push('[DONE]')
    expect(stream.finish()).toMatchObject({ model: 'served-model', finishReason: 'stop', text: 'hi' })
  })
})

describe('parseOpenAiReply', () => {
  it('keeps cached prompt and reasoning tokens when the provider reports them', () => {
    const reply = (usage: unknown) =>
      parseOpenAiReply({ choices: [{ message: { content: 'hi' } }], usage }, target, 'm', 'c').usage
    expect(
      reply({
        prompt_tokens: 100,
        completion_tokens: 40,
        prompt_tokens_details: { cached_tokens: 60 },
        completion_tokens_details: { reasoning_tokens: 25 },
      }),
    ).toEqual({ prompt: 100, completion: 40, cachedPrompt: 60, reasoning: 25 })
    expect(reply({ prompt_tokens: 5, completion_tokens: 2 })).toEqual({ prompt: 5, completion: 2 })
  })

  it('accepts tool arguments sent as an object by writing them as JSON text', () => {
    const result = parseOpenAiReply(
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [{ id: 't', function: { name: 'f', arguments: { a: 1 } } }],
            },
          },
        ],
      },
      target,
      'm',
      'c',
    )
    expect(result.toolCalls).toEqual([{ id: 't', name: 'f', arguments: '{"a":1}' }])
    expect(result.finishReason).toBe('tool_calls')
    expect(result.usage).toBeUndefined()
  })

  it('turns an error body with status 200 into PROVIDER_SERVER and nonsense into PROVIDER_BAD_RESPONSE', () => {
    expect(thrown(() => parseOpenAiReply({ error: { message: 'boom' } }, target, 'm', 'c')).code).toBe(
      'PROVIDER_SERVER',
    )
    expect(thrown(() => parseOpenAiReply({ hello: 1 }, target, 'm', 'c')).code).toBe('PROVIDER_BAD_RESPONSE')
  })
})
