/**
 * The "Summarise a list" template: a loop runs the model once per item, offline with the demo
 * provider (each scripted summary answers the item it names), and a Code node joins them.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import type { RunEvent } from '../../src/engine/index.ts'
import { loadTemplate, runTemplate } from './harness.ts'

const runner = createNodeCodeRunner()
afterAll(() => runner.dispose())

const finishes = (events: RunEvent[], id: string) =>
  events.flatMap((e) => (e.type === 'nodeFinish' && e.nodeId === id ? [e] : []))

describe('template "Summarise a list"', () => {
  it('summarises each item in its own iteration, in item order, and joins the summaries', async () => {
    const run = await runTemplate(loadTemplate('summarise-list.wardflow.json'), runner)
    expect(run.events.filter((e) => e.type === 'nodeError')).toEqual([])
    expect(run.events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
    const summaries = finishes(run.events, 'summary')
    expect(summaries.map((e) => [e.nesting?.at(-1)?.iteration, e.nesting?.map((s) => s.nodeId)])).toEqual([
      [0, ['each']],
      [1, ['each']],
      [2, ['each']],
    ])
    // Each iteration got the summary of its own item, not the script's next reply.
    expect(summaries.map((e) => String(e.output['response']).split(':')[0])).toEqual([
      'Arlo grinder',
      'Basalt kettle',
      'Cedar desk lamp',
    ])
    const digest = finishes(run.events, 'digest')[0]?.output
    expect(digest?.['count']).toBe('3')
    expect(String(digest?.['digest']).split('\n')).toEqual([
      '1. Arlo grinder: even grind and easy cleaning, but loud and slow to arrive.',
      '2. Basalt kettle: boils fast and keeps water hot; the lid sticks.',
      '3. Cedar desk lamp: warm light and a sturdy base; the dimmer skips steps.',
    ])
  })
})
