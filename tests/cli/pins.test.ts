/** Pinned outputs through the real CLI: a pinned node in a file is not run (issue 19, item 1). */
import { describe, expect, it } from 'vitest'
import { wardflow, jsonLines } from '../support/wardflowCli.ts'

describe('wardflow run: pinned outputs', { timeout: 60_000 }, () => {
  it('does not run a pinned model node; its pin feeds the Output, at 0 tokens, exit 0', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/pinned.wardflow.json', '--json'])
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    expect(events.filter((e) => e.type === 'nodeStart').map((e) => e.nodeId)).toEqual([
      'input_1',
      'template_1',
      'output_1',
    ])
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'llm_1')).toMatchObject({
      cached: { reason: 'pinned' },
      output: { response: 'PINNED ANSWER' },
    })
    expect(events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'output_1')).toMatchObject({
      output: { answer: 'PINNED ANSWER' },
    })
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success', usage: { total: 0 } })
  })
})
