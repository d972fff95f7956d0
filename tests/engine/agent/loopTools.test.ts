/** Tool outcomes in the agent loop: unknown tools, invalid arguments, failures, timeouts, Stop. */
import { describe, expect, it } from 'vitest'
import { FlowError } from '../../../src/engine/run.ts'
import { flushMicrotasks } from '../../support/manualClock.ts'
import { call, expectAllRequestsWellFormed, harness, tool } from './support/loopHarness.ts'

const citySchema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
  additionalProperties: false,
}

describe('agent loop: tool outcomes', () => {
  it('answers an unknown tool with the exact observation and carries on', async () => {
    const h = harness([{ toolCalls: [call('teleport', { to: 'mars' })] }, { text: 'I cannot teleport.' }], {
      tools: [tool('walk', () => 'ok')],
    })
    const result = await h.run()
    expect(result.toolCalls[0]?.observation).toBe('Observation: Error - Tool "teleport" not found.')
    expect(result.stopReason).toBe('answer')
    expectAllRequestsWellFormed(h.provider)
  })

  it('counts unknown-tool calls for the guard like any call', async () => {
    const h = harness([{ toolCalls: [call('ghost')] }], { tools: [] })
    const result = await h.run()
    expect(result.stopReason).toBe('deadlock')
    expect(result.toolCalls.map((c) => c.observation)).toEqual([
      'Observation: Error - Tool "ghost" not found.',
      'Observation: Error - Tool "ghost" not found.',
      'Observation: Execution halted by Deadlock Breaker (3 identical calls). Please synthesize conclusion immediately.',
    ])
  })

  it('refuses arguments that do not fit the schema, without running the tool', async () => {
    const forecast = tool('forecast', () => 'sunny', { parameters: citySchema })
    const h = harness(
      [
        { toolCalls: [call('forecast', { days: 9, extra: true })] },
        { toolCalls: [call('forecast', { city: 'Oslo', days: 2 })] },
        { text: 'Sunny in Oslo.' },
      ],
      { tools: [forecast] },
    )
    const result = await h.run()
    expect(forecast.runs).toEqual([{ city: 'Oslo', days: 2 }])
    const error = result.toolCalls[0]?.observation ?? ''
    expect(error).toMatch(/^Observation: Error - Invalid arguments for tool "forecast": /)
    expect(error).toContain('arguments.city is required')
    expect(error).toContain('arguments.days must be <= 7')
    expect(error).toContain('unknown property "extra"')
    expect(result.stopReason).toBe('answer')
  })

  it('refuses arguments that are not JSON, and counts them for the guard', async () => {
    const forecast = tool('forecast', () => 'sunny', { parameters: citySchema })
    const h = harness([{ toolCalls: [call('forecast', '{"city": "Oslo"')] }], { tools: [forecast] })
    const result = await h.run()
    expect(forecast.runs).toHaveLength(0)
    expect(result.toolCalls[0]?.observation).toMatch(
      /^Observation: Error - Invalid arguments for tool "forecast": arguments are not valid JSON/,
    )
    expect(result.stopReason).toBe('deadlock')
  })

  it('reads empty arguments as an empty object', async () => {
    const now = tool('now', () => '12:00', { parameters: { type: 'object', properties: {} } })
    const h = harness([{ toolCalls: [call('now', '')] }, { text: 'noon' }], { tools: [now] })
    await h.run()
    expect(now.runs).toEqual([{}])
  })

  it('turns a failing tool into an error observation', async () => {
    const h = harness([{ toolCalls: [call('fail')] }, { text: 'It failed.' }], {
      tools: [
        tool('fail', () => {
          throw new FlowError('HTTP_STATUS', 'HTTP 503 Service Unavailable')
        }),
      ],
    })
    const result = await h.run()
    expect(result.toolCalls[0]?.observation).toBe(
      'Observation: Error executing tool "fail": HTTP 503 Service Unavailable',
    )
    expect(h.alerts).toEqual([])
  })

  it('stops a tool that outlives its watchdog, tells the model, and raises a watchdog alert', async () => {
    const slow = tool(
      'slow',
      (_args, signal) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      { timeoutMs: 5_000 },
    )
    const h = harness([{ toolCalls: [call('slow')] }, { text: 'The tool hung.' }], { tools: [slow] })
    const running = h.run()
    await h.clock.waitForSleepers(1)
    await h.clock.advance(4_999)
    expect(slow.signals[0]?.aborted).toBe(false)
    await h.clock.advance(1)
    const result = await running
    expect(slow.signals[0]?.aborted).toBe(true)
    expect(result.toolCalls[0]?.observation).toBe(
      'Observation: Error executing tool "slow": Tool "slow" did not finish within 5000 ms and was stopped.',
    )
    expect(h.alerts).toHaveLength(1)
    expect(h.alerts[0]).toMatchObject({ layer: 'watchdog', level: 'trip', tool: 'slow' })
    expect(result.stopReason).toBe('answer')
  })

  it('reports a sandbox or HTTP timeout from the tool itself as a watchdog alert', async () => {
    const h = harness([{ toolCalls: [call('code')] }, { text: 'ok' }], {
      tools: [
        tool('code', () => {
          throw new FlowError('SANDBOX_TIMEOUT', 'The code ran longer than 5000 ms and was stopped.')
        }),
      ],
    })
    const result = await h.run()
    expect(result.toolCalls[0]?.observation).toBe(
      'Observation: Error executing tool "code": The code ran longer than 5000 ms and was stopped.',
    )
    expect(h.alerts[0]).toMatchObject({ layer: 'watchdog', level: 'trip', tool: 'code' })
  })

  it('cuts very long observations before they reach the model', async () => {
    const h = harness([{ toolCalls: [call('dump')] }, { text: 'ok' }], {
      tools: [tool('dump', () => 'y'.repeat(50_000))],
    })
    const result = await h.run()
    const observation = result.toolCalls[0]?.observation ?? ''
    expect(observation.length).toBeLessThan(21_000)
    expect(observation).toMatch(/\[Observation truncated: 30000 more characters\]$/)
  })
})

describe('agent loop: Stop', () => {
  it('ends with stopReason "cancelled" when stopped while a tool runs, and makes no further call', async () => {
    let started = false
    const wait = tool('wait', (_args, signal) => {
      started = true
      return new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('stopped'))),
      )
    })
    const h = harness([{ toolCalls: [call('wait'), call('after')] }, { text: 'never' }], { tools: [wait] })
    const running = h.run()
    while (!started) await flushMicrotasks()
    h.controller.abort()
    const result = await running
    expect(result.stopReason).toBe('cancelled')
    expect(wait.signals[0]?.aborted).toBe(true)
    expect(h.provider.requests).toHaveLength(1)
  })

  it('stops a tool that ignores its signal all the same', async () => {
    let started = false
    const stubborn = tool('stubborn', () => {
      started = true
      return new Promise<string>(() => undefined)
    })
    const h = harness([{ toolCalls: [call('stubborn')] }], { tools: [stubborn] })
    const running = h.run()
    while (!started) await flushMicrotasks()
    h.controller.abort()
    expect((await running).stopReason).toBe('cancelled')
  })

  it('ends with "cancelled" when stopped mid-stream, keeping what streamed', async () => {
    const h = harness([{ text: 'a long streamed answer', chunkSize: 2, delayMs: 10 }])
    const running = h.run()
    await h.clock.advance(35)
    h.controller.abort()
    const result = await running
    expect(result.stopReason).toBe('cancelled')
    expect(result.status).toBe('stopped')
    expect(h.console.map((c) => c.text).join('').length).toBeGreaterThan(0)
  })

  it('does not start when the signal is already aborted', async () => {
    const h = harness([{ text: 'never' }])
    h.controller.abort()
    expect((await h.run()).stopReason).toBe('cancelled')
    expect(h.provider.requests).toHaveLength(0)
  })
})
