import { describe, expect, it } from 'vitest'
import { runsCode } from '../../src/app/runContext.ts'
import { flow } from '../support/flowBuilders.ts'
import { config } from '../storage/support.ts'

describe('runsCode (whether a run starts the sandbox with its first node)', () => {
  const agent = (tools: unknown[]) =>
    flow().meta('flow_a').node('agent_1', 'agent', config('agent', { tools })).build()

  it('is true for a Code node and for an Agent with a code tool', () => {
    expect(
      runsCode(
        flow()
          .meta('f')
          .node('c', 'code', config('code', { code: 'return 1' }))
          .build(),
      ),
    ).toBe(true)
    expect(
      runsCode(
        agent([
          { kind: 'http', name: 'get' },
          { kind: 'code', name: 'calc' },
        ]),
      ),
    ).toBe(true)
  })

  it('is false for model, template and http nodes, and for an Agent without code tools', () => {
    const plain = flow()
      .meta('f')
      .node('in_1', 'input', config('input', { values: { q: 'x' } }))
      .node('out_1', 'output', config('output', { values: { a: '{{in_1.q}}' } }))
      .chain('in_1', 'out_1')
      .build()
    expect(runsCode(plain)).toBe(false)
    expect(
      runsCode(
        agent([
          { kind: 'http', name: 'get' },
          { kind: 'node', name: 'ask' },
        ]),
      ),
    ).toBe(false)
    expect(runsCode(agent([]))).toBe(false)
    expect(runsCode(agent([null, 'code']))).toBe(false)
  })
})
