/**
 * Branching flows through the real CLI (`node bin/wardflow.mjs run --json`): the real PatchCat
 * router from ../shared/fixtures/patchcat/ (a folder beside the repo, never copied in; loudly
 * skipped when absent) and a Wardflow file with a chain in a not-taken branch and a merge.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { ROOT, wardflow, jsonLines as events } from '../support/wardflowCli.ts'

const ROUTER = resolve(ROOT, '../shared/fixtures/patchcat/en-conditional-customer-routing.json')
const routerPresent = existsSync(ROUTER)
const MISSING = `PatchCat router not found at ${ROUTER}: the CLI run of the real router is SKIPPED`
if (!routerPresent) console.warn(`[cli] WARNING: ${MISSING}.`)

const skipped = (list: RunEvent[]) =>
  list.flatMap((e) => (e.type === 'nodeSkipped' ? [`${e.nodeId}:${e.reason}`] : [])).sort()
const finished = (list: RunEvent[]) => list.flatMap((e) => (e.type === 'nodeFinish' ? [e.nodeId] : [])).sort()
const outputOf = (list: RunEvent[], nodeId: string) => {
  const finish = list.find((e) => e.type === 'nodeFinish' && e.nodeId === nodeId)
  return finish?.type === 'nodeFinish' ? finish.output : undefined
}

describe('wardflow run: branching flows', { timeout: 60_000 }, () => {
  it('the real PatchCat router file is present, or its CLI runs are skipped with the reason', (context) => {
    if (!routerPresent) context.skip(MISSING)
    expect(existsSync(ROUTER)).toBe(true)
  })

  it.skipIf(!routerPresent).each([
    ['technical', 'prompt_tech', 'senior DevOps'],
    ['BILLING', 'prompt_billing', 'billing specialist'],
    ['shipping', 'prompt_general', 'concierge'],
  ])('the real PatchCat router with category=%s runs %s only, exit 0', async (category, taken, words) => {
    const result = await wardflow(['run', ROUTER, '--input', `category=${category}`, '--json'])
    expect(result.code).toBe(0)
    // The import notes go to stderr as warnings; stdout is events only.
    expect(result.stderr).toContain('Imported from PatchCat')
    const list = events(result.stdout)
    expect(list.filter((e) => e.type === 'nodeError')).toEqual([])
    const prompts = ['prompt_tech', 'prompt_billing', 'prompt_general']
    expect(skipped(list)).toEqual(
      prompts
        .filter((p) => p !== taken)
        .map((p) => `${p}:notTaken`)
        .sort(),
    )
    expect(finished(list)).toEqual(
      ['input_ticket', 'cond_router', taken, 'aggregator_response', 'output_result'].sort(),
    )
    expect(outputOf(list, 'aggregator_response')).toMatchObject({ from: taken })
    const answer = String(outputOf(list, 'output_result')?.result)
    expect(answer).toContain(words)
    expect(answer).toContain('database connection drops')
    expect(list.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('a Wardflow router: the refund case runs, the urgent chain and else are not taken, exit 0', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/branching.wardflow.json', '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const list = events(result.stdout)
    expect(skipped(list)).toEqual(['general:notTaken', 'page:notTaken', 'page_log:notTaken'])
    expect(outputOf(list, 'route')).toEqual({ case: 'refund', value: 'Please refund my order' })
    expect(outputOf(list, 'out')).toEqual({
      answer: 'Refund desk (refund): Please refund my order',
      from: 'refund_reply',
    })
    expect(list.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('the same router with --input urgency=5 takes the urgent chain through the merge', async () => {
    const result = await wardflow([
      'run',
      'tests/fixtures/cli/branching.wardflow.json',
      '--input',
      'urgency=5',
      '--json',
    ])
    expect(result.code).toBe(0)
    const list = events(result.stdout)
    expect(skipped(list)).toEqual(['general:notTaken', 'refund_reply:notTaken'])
    expect(outputOf(list, 'out')).toEqual({ answer: 'logged PAGE: Please refund my order', from: 'page_log' })
  })

  it('the readable log says which nodes were not taken and exits 0', async () => {
    const result = await wardflow(['run', 'tests/fixtures/cli/branching.wardflow.json'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('○ General reply (general) skipped: Not taken')
    expect(result.stdout).toContain('answer: Refund desk (refund): Please refund my order')
  })

  it('a refused condition names where each of its problems is, not only the first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wardflow-branching-'))
    try {
      const path = join(dir, 'bad-cases.wardflow.json')
      const cases = [{ id: 'else', rules: [{ value: '{{in.t}}', op: 'like', to: 'x' }] }]
      const nodes = [
        { id: 'in', type: 'input', data: { config: { values: { t: 'x' } } } },
        { id: 'c', type: 'condition', data: { config: { cases } } },
      ]
      await writeFile(path, JSON.stringify({ format: 'wardflow.workflow', version: 2, nodes, edges: [] }))
      const result = await wardflow(['run', path])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(
        'nodes[1].data.config.cases[0].id: "else" is the output when no case holds.',
      )
      expect(result.stderr).toContain('(and 1 more problem: nodes[1].data.config.cases[0].rules[0].op)')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
