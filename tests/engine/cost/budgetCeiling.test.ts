/**
 * The run budget counts a prompt only when the call could cross a limit: far below it the
 * byte ceiling (promptTokensCeiling) lets the call through without the tokenizer, near it the
 * exact count decides, so a call that would exceed is still never made.
 */
import { describe, expect, it } from 'vitest'
import { RunBudget } from '../../../src/engine/cost/runBudget.ts'
import { estimatePromptTokens, promptTokensCeiling } from '../../../src/engine/agent/tokens.ts'
import type { ChatRequest } from '../../../src/engine/ports.ts'

const request = (text: string): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content: text }] })

function budget(maxRunTokens: number) {
  const counted: string[] = []
  const estimate = (text: string) => {
    counted.push(text)
    return Promise.resolve(Math.ceil(text.length / 4))
  }
  const stops: number[] = []
  return { budget: new RunBudget(undefined, { maxRunTokens }, estimate, () => stops.push(1)), counted, stops }
}

describe('the run budget before a call', () => {
  it('does not count a prompt whose ceiling stays under the limit', async () => {
    const { budget: b, counted } = budget(1_000_000)
    await b.beforeCall('p', request('x'.repeat(3000)), () => {})
    expect(counted).toHaveLength(0)
  })

  it('counts near the limit, lets a call that fits through and refuses one that does not', async () => {
    const near = budget(1000)
    await near.budget.beforeCall('p', request('x'.repeat(1000)), () => {})
    expect(near.counted).toHaveLength(1)
    expect(near.stops).toHaveLength(0)

    const over = budget(100)
    const alerts: unknown[] = []
    await expect(
      over.budget.beforeCall('p', request('x'.repeat(1000)), (a) => alerts.push(a)),
    ).rejects.toMatchObject({
      code: 'RUN_BUDGET',
    })
    expect(alerts).toHaveLength(1)
    expect(over.stops).toHaveLength(1)
  })

  it('the ceiling is never below the count of a byte-level estimator, multi-byte text included', async () => {
    const bytes = (text: string) => Promise.resolve(new TextEncoder().encode(text).length)
    for (const text of ['hello', '你好世界', '🙂🙂 mixed ü', '']) {
      const r = request(text)
      expect(promptTokensCeiling(r)).toBeGreaterThanOrEqual(await estimatePromptTokens(r, bytes))
    }
  })
})
