import { describe, expect, it } from 'vitest'
import { defaultProtection } from '../../src/engine/index.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { fakeCodeRunner } from '../support/fakeCodeRunner.ts'
import { consoleOf, outputOf, runWithClock } from './runNodes.ts'

describe('code node', () => {
  it('gives the code the outputs of its direct upstream nodes as `inputs`, keyed by node id', async () => {
    const runner = fakeCodeRunner(({ bindings }, logs) => {
      logs.push('seen inputs', 'second line')
      const inputs = bindings['inputs'] as Record<string, Record<string, string>>
      return {
        keys: Object.keys(inputs).sort(),
        greeting: `${inputs['t']?.['text']} / ${inputs['in2']?.['b']}`,
      }
    })
    const doc = flow()
      .node('in', 'input', { values: { a: 'hello' } })
      .node('in2', 'input', { values: { b: 'there' } })
      .node('t', 'template', { template: '{{in.a}}!' })
      .node('code', 'code', { code: 'return 1', timeoutMs: 2000 })
      .chain('in', 't', 'code')
      .edge('in2', 'code')
      .build()
    const { ctx, clock } = testContext({ codeRunner: runner })
    const events = await runWithClock(doc, ctx, clock)
    expect(outputOf(events, 'code')).toEqual({
      result: { keys: ['in2', 't'], greeting: 'hello! / there' },
      logs: ['seen inputs', 'second line'],
    })
    expect(runner.requests[0]).toMatchObject({ code: 'return 1', timeoutMs: 2000 })
    expect(consoleOf(events, 'code', 'log')).toBe('seen inputs\nsecond line\n')
    expect(consoleOf(events, 'code', 'output')).toBe('{"keys":["in2","t"],"greeting":"hello! / there"}')
  })

  it('never resolves templates inside the code', async () => {
    const runner = fakeCodeRunner(() => null)
    const { ctx, clock } = testContext({ codeRunner: runner })
    const code = 'return "{{in.a}}"'
    await runWithClock(
      flow()
        .node('in', 'input', { values: { a: 'x' } })
        .node('c', 'code', { code })
        .edge('in', 'c')
        .build(),
      ctx,
      clock,
    )
    expect(runner.requests[0]?.code).toBe(code)
  })

  it('inherits the sandbox timeout from runtime protection when the node sets none', async () => {
    const clock = new ManualClock()
    const runner = fakeCodeRunner(() => new Promise(() => undefined), { clock })
    const { ctx } = testContext({
      clock,
      codeRunner: runner,
      protection: { ...defaultProtection(), sandboxTimeoutMs: 3000 },
    })
    const events = await runWithClock(flow().node('c', 'code', { code: 'while(true){}' }).build(), ctx, clock)
    expect(runner.requests[0]?.timeoutMs).toBe(3000)
    expect(ofType(events, 'nodeError')[0]).toMatchObject({ code: 'SANDBOX_TIMEOUT', durationMs: 3000 })
  })
})
