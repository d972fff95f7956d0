import { describe, expect, it } from 'vitest'
import { preflight, runFlow, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { createMemoryKnowledge } from '../../src/knowledge/memoryKnowledge.ts'
import { createBaseIndex } from '../../src/knowledge/search.ts'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import { collect, flow, testContext } from '../support/flowBuilders.ts'

const base = createBaseIndex(
  [
    ['refunds.md', 'Refunds are paid within 14 days of the request.'],
    ['shipping.md', 'Parcels ship from Rotterdam within two days.'],
    ['security.md', 'Reset a password under Settings, Security.'],
  ].map(([source, text], i) => ({ id: `c${i}`, source: source!, text: text!, vector: demoVector(text!) })),
)

const knowledge = createMemoryKnowledge(new Map([['kb_help', base]]), {
  howToAdd: (id) => `Give it with --knowledge ${id}=<folder or file>.`,
  embedQuery: async (_base, query) => demoVector(query),
})

function asking(config: Record<string, unknown>): FlowDocument {
  return flow()
    .node('question', 'input', { values: { text: 'How long do refunds take?' } })
    .node('kb', 'knowledge', { base: 'kb_help', query: '{{question.text}}', topK: 2, ...config })
    .node('prompt', 'template', { template: 'Answer from:\n{{kb.result}}' })
    .edge('question', 'kb')
    .edge('kb', 'prompt')
    .build()
}

async function run(doc: FlowDocument, withKnowledge = true): Promise<RunEvent[]> {
  const { ctx } = testContext(withKnowledge ? { knowledge } : {})
  return collect(runFlow(doc, engineRegistry, ctx))
}

function finish(events: RunEvent[], nodeId: string): Record<string, unknown> {
  const event = events.find((e) => e.type === 'nodeFinish' && e.nodeId === nodeId)
  if (event?.type !== 'nodeFinish') throw new Error(`${nodeId} did not finish: ${JSON.stringify(events)}`)
  return event.output
}

describe('knowledge node', () => {
  it('returns the best chunks with source and score, and a numbered citation block downstream nodes quote', async () => {
    const events = await run(asking({}))
    const output = finish(events, 'kb')
    const results = output.results as Array<{ text: string; source: string; score: number }>
    expect(results[0]).toMatchObject({
      source: 'refunds.md',
      text: 'Refunds are paid within 14 days of the request.',
    })
    expect(results.length).toBeLessThanOrEqual(2)
    for (const r of results) expect(r.score).toBeGreaterThan(0)
    expect(output.result).toMatch(/^\[1\] refunds\.md \(score \d\.\d\d\)\nRefunds are paid within 14 days/)
    expect(finish(events, 'prompt').text).toContain('[1] refunds.md')
    // The console shows each result with its source.
    const consoleText = events
      .filter((e) => e.type === 'nodeChunk' && e.nodeId === 'kb')
      .map((e) => (e.type === 'nodeChunk' ? e.text : ''))
      .join('')
    expect(consoleText).toContain('[1] refunds.md ·')
  })

  it('drops results under minScore', async () => {
    const output = finish(await run(asking({ minScore: 1 })), 'kb')
    expect(output.results).toEqual([])
    expect(output.result).toBe('')
  })

  it('fails with KNOWLEDGE_BASE_MISSING naming the base and how to add it', async () => {
    const events = await run(asking({ base: 'kb_absent' }))
    const error = events.find((e) => e.type === 'nodeError' && e.nodeId === 'kb')
    expect(error).toMatchObject({ code: 'KNOWLEDGE_BASE_MISSING' })
    expect(error?.type === 'nodeError' ? error.message : '').toContain('kb_absent')
    expect(error?.type === 'nodeError' ? error.message : '').toContain(
      '--knowledge kb_absent=<folder or file>',
    )
    const bare = (await run(asking({}), false)).find((e) => e.type === 'nodeError')
    expect(bare).toMatchObject({ code: 'KNOWLEDGE_BASE_MISSING' })
    expect(bare?.type === 'nodeError' ? bare.message : '').toContain('Knowledge screen')
  })

  it('is refused at preflight without a base or a query', () => {
    const problems = preflight(asking({ base: ' ', query: '' }), engineRegistry)
    const messages = problems.filter((p) => p.nodeId === 'kb').map((p) => p.message)
    expect(messages.join('\n')).toContain('Name the knowledge base to search.')
    expect(messages.join('\n')).toContain('Write the query to search for.')
  })
})
