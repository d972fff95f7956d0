/**
 * The "Support router" template takes a real branch: offline with the demo provider (its
 * scripted classification), and with other classifications a real model might give.
 */
import { describe, expect, it } from 'vitest'
import { runFlow, type Clock, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { createDemoProvider } from '../../src/providers/index.ts'
import { collect, testContext } from '../support/flowBuilders.ts'
import { ScriptedProvider } from '../support/scriptedProvider.ts'
import { loadTemplate } from './harness.ts'

/** Time that never waits: the demo provider's streaming pauses pass instantly. */
const instantClock: Clock = { now: () => Date.now(), sleep: async () => undefined }
const BRANCHES = ['billing_reply', 'technical_reply', 'general_reply']

function summary(events: RunEvent[]) {
  const answer = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'answer')
  return {
    status: events.find((e) => e.type === 'runFinish'),
    errors: events.filter((e) => e.type === 'nodeError'),
    skipped: events.flatMap((e) => (e.type === 'nodeSkipped' ? [`${e.nodeId}:${e.reason}`] : [])).sort(),
    answer: answer?.type === 'nodeFinish' ? answer.output : undefined,
  }
}

describe('template "Support router"', () => {
  it('offline with the demo provider: classified billing, only the billing reply runs', async () => {
    const { ctx } = testContext({
      provider: { resolve: async () => createDemoProvider({ clock: instantClock }) },
    })
    const run = summary(
      await collect(
        runFlow(loadTemplate('support-router.wardflow.json'), engineRegistry, {
          ...ctx,
          clock: instantClock,
        }),
      ),
    )
    expect(run.errors).toEqual([])
    expect(run.status).toMatchObject({ status: 'success' })
    expect(run.skipped).toEqual(['general_reply:notTaken', 'technical_reply:notTaken'])
    expect(run.answer).toMatchObject({ category: 'billing', branch: 'billing_reply' })
    expect(String(run.answer?.reply)).toContain('the billing team has your ticket')
  })

  it.each([
    ['Technical.', 'technical', 'technical_reply'],
    ['BILLING', 'billing', 'billing_reply'],
    ['I am not sure.', 'else', 'general_reply'],
  ])('a model answering %j routes to %s', async (reply, category, branch) => {
    const { ctx } = testContext({ provider: new ScriptedProvider([{ text: reply }]) })
    const run = summary(
      await collect(runFlow(loadTemplate('support-router.wardflow.json'), engineRegistry, ctx)),
    )
    expect(run.status).toMatchObject({ status: 'success' })
    expect(run.skipped).toEqual(
      BRANCHES.filter((b) => b !== branch)
        .map((b) => `${b}:notTaken`)
        .sort(),
    )
    expect(run.answer).toMatchObject({ category, branch })
  })
})
