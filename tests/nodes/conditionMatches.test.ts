import { describe, expect, it } from 'vitest'
import { runFlow, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

async function route(text: string, pattern: string, ignoreCase?: boolean): Promise<unknown> {
  const doc = flow()
    .node('ticket', 'input', { values: { text, pattern } })
    .node('route', 'condition', {
      cases: [
        {
          id: 'hit',
          rules: [{ value: '{{ticket.text}}', op: 'matches', to: '{{ticket.pattern}}', ignoreCase }],
        },
      ],
    })
    .edge('ticket', 'route')
    .build()
  const events: RunEvent[] = await collect(runFlow(doc, engineRegistry, testContext().ctx))
  const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'route')
  return finish?.type === 'nodeFinish' ? finish.output.case : events
}

describe('condition matches', () => {
  it('compiles the resolved pattern when `to` is a reference, not the template text', async () => {
    expect(await route('please refund now', 'refund\\s+now')).toBe('hit')
    expect(await route('please REFUND now', 'refund\\s+now')).toBe('else')
    expect(await route('please REFUND now', 'refund\\s+now', true)).toBe('hit')
  })

  it('the same pattern text with and without ignoreCase are two patterns (the cache keys the flags)', async () => {
    expect(await route('ABC', 'abc', true)).toBe('hit')
    expect(await route('ABC', 'abc')).toBe('else')
  })
})
