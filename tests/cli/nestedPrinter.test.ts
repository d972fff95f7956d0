import { describe, expect, it } from 'vitest'
import { HumanPrinter } from '../../src/cli/printer.ts'
import type { FlowDocument, RunEvent } from '../../src/engine/index.ts'
import { caller, failer, leaf, loopCaller, loopInLoop, looper, runNested } from '../support/nestedFlows.ts'

/** The CLI's readable log of `events`, with durations blanked (the run clock is a test one). */
function log(doc: FlowDocument, events: RunEvent[]): string[] {
  let out = ''
  const printer = new HumanPrinter(doc, (text) => (out += text))
  for (const event of events) printer.print(event)
  return out.split('\n').map((line) => line.replace(/ in \d+\.\d+ s.*$/, ''))
}

describe('the CLI log of nested loops and sub-flows', () => {
  it('a sub-flow in a loop body: the body node’s lines carry the iteration, the called text its way down', async () => {
    const doc = loopCaller('leaf')
    const lines = log(doc, await runNested(doc, leaf))
    expect(lines).toEqual([
      '▶ Main: 2 nodes',
      '● outer started',
      '● Call (call) [outer #0] started',
      '── Call (call) [outer #0] › out ──',
      '[a]',
      '✓ Call (call) [outer #0] finished',
      '● Call (call) [outer #1] started',
      '── Call (call) [outer #1] › out ──',
      '[b]',
      '✓ Call (call) [outer #1] finished',
      '── outer ──',
      '2 results',
      '✓ outer finished',
      '● out started',
      '✓ out finished',
      'Run succeeded',
      '',
      'Outputs',
      '  n: 2',
      '',
    ])
  })

  it('a loop in a sub-flow: no lines of the called flow’s nodes, its loop named in the way down', async () => {
    const doc = caller('main', 'looper', 'n')
    const lines = log(doc, await runNested(doc, looper))
    expect(lines.filter((l) => l.includes('call'))).toEqual([
      '● Call (call) started',
      '── Call (call) › each ──',
      '── Call (call) › out ──',
      '✓ Call (call) finished',
    ])
    expect(lines.join('\n')).not.toMatch(/fmt/)
  })

  it('a failure in a loop inside a sub-flow names the calling node, the loop and its iteration', async () => {
    const doc = caller('main', 'failer', 'n')
    const lines = log(doc, await runNested(doc, failer))
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}↳ Call \(call\) › each #0 › f failed \[HTTP_NETWORK\]: Could not reach/),
    )
  })

  it('two levels of sub-flow and a loop in a loop body', async () => {
    const outer = caller('outer', 'middle', 'result')
    const two = log(outer, await runNested(outer, caller('middle', 'leaf', 'text'), leaf))
    expect(two).toContain('── Call (call) › call › out ──')
    const grid = log(loopInLoop, await runNested(loopInLoop))
    expect(grid.filter((l) => l.startsWith('✓ t'))).toEqual([
      '✓ t [outer #0 > inner #0] finished',
      '✓ t [outer #0 > inner #1] finished',
      '✓ t [outer #1 > inner #0] finished',
      '✓ t [outer #1 > inner #1] finished',
    ])
  })
})
