/**
 * The LLM node stops a reply that degenerates into repeating itself (docs/guard.md,
 * "Degenerate text"): one `guard` trip, the stream closed, the text so far kept, the node
 * stopped with `stopReason: 'degenerate'`, its output still flowing downstream. The switch in
 * Settings and on the node turns it off.
 */
import { describe, expect, it } from 'vitest'
import { defaultProtection } from '../../src/engine/index.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { scriptedProvider } from '../support/scriptedProvider.ts'
import { outputOf, runWithClock } from './runNodes.ts'

const LOOPING = `Here is the summary. ${'The report says revenue grew in every region this year. '.repeat(100)}`

const doc = (config: Record<string, unknown> = {}) =>
  flow()
    .node('llm', 'llm', { model: 'gpt-test', prompt: 'Summarise the report.', ...config })
    .node('out', 'template', { template: 'Got: {{llm.response}}' })
    .edge('llm', 'out')
    .build()

async function run(config: Record<string, unknown> = {}, textLoopDetection = true) {
  const clock = new ManualClock()
  const provider = scriptedProvider([{ text: LOOPING, usage: null }], { clock, chunkSize: 20 })
  const { ctx } = testContext({ clock, provider, protection: { ...defaultProtection(), textLoopDetection } })
  return runWithClock(doc(config), ctx, clock)
}

describe('llm node: degenerate text', () => {
  it('trips once, keeps the text so far and finishes stopped with stopReason degenerate', async () => {
    const events = await run()
    const guards = ofType(events, 'guard')
    expect(guards).toHaveLength(1)
    expect(guards[0]).toMatchObject({ nodeId: 'llm', layer: 'loop', level: 'trip', detector: 'content' })
    expect(guards[0]?.message).toMatch(
      /^\[Degenerate Text Protection\] Tripped: the reply repeated ".+" \d+ times close together\. Stream aborted to prevent token waste\.$/,
    )
    const finish = ofType(events, 'nodeFinish').find((e) => e.nodeId === 'llm')
    expect(finish?.status).toBe('stopped')
    const output = outputOf(events, 'llm') as { response: string; stopReason: string; finishReason: string }
    expect(output.stopReason).toBe('degenerate')
    expect(output.finishReason).toBe('degenerate')
    expect(output.response.length).toBeLessThan(2500)
    expect(LOOPING.startsWith(output.response)).toBe(true)
    const streamed = ofType(events, 'nodeChunk')
      .filter((e) => e.nodeId === 'llm')
      .map((e) => e.text)
      .join('')
    expect(streamed).toBe(output.response)
    expect(outputOf(events, 'out')).toMatchObject({ text: `Got: ${output.response}` })
  })

  it('lets the whole reply through when Settings turn the guard off', async () => {
    const events = await run({}, false)
    expect(ofType(events, 'guard')).toEqual([])
    expect(outputOf(events, 'llm')).toMatchObject({ response: LOOPING, finishReason: 'stop' })
    expect(outputOf(events, 'llm')).not.toHaveProperty('stopReason')
  })

  it('follows the node over Settings, both ways', async () => {
    expect(ofType(await run({ textLoopDetection: false }, true), 'guard')).toEqual([])
    expect(ofType(await run({ textLoopDetection: true }, false), 'guard')).toHaveLength(1)
  })
})
