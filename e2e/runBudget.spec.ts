/**
 * The whole-run budget in the browser: the "Team on a budget" template (three demo Agents, a
 * 9,000-token `metadata.limits`) opens from the gallery and runs. The researcher and the critic
 * share the run's ledger: the 4th call passes 80 % (a hint), the 5th crosses the limit (a trip),
 * both running agents stop, the writer and the memo are skipped (budget), the run ends stopped,
 * and the run panel shows the stop (`run-guard`) and the tokens spent (`run-cost`). Then the
 * same budget over a batch: the rows of the Batch screen charge one ledger.
 */
import { expect, test } from './support/fixtures.ts'
import { jsonFile } from './support/files.ts'

const HINT = '[Run Budget Warning] The run has used 8000 tokens of its budget of 9000 tokens.'
const TRIP =
  '[Run Budget Exceeded] The run has used 10000 tokens, over its budget of 9000 tokens. Stopping the run.'

/** Five streamed demo turns with sandboxed tool calls: a few seconds, more on a shared CI core. */
const STOP_WAIT_MS = 45_000

test.beforeEach(async ({ app }) => {
  test.setTimeout(120_000)
  await app.open()
})

test('three agents share one run budget: hint, trip, a stopped run, skipped nodes, the cost', async ({
  app,
  page,
}) => {
  const { templates, run, canvas } = app
  await templates.open()
  await templates.openTemplate('budget-team')
  await expect(canvas.node('writer')).toBeVisible()
  await run.start()
  await run.finished(STOP_WAIT_MS)

  // The lines of the node whose call crossed each mark (either agent, by timing).
  const budgetAlerts = page.locator('[data-testid="guard-alert"][data-layer="budget"]')
  await expect(budgetAlerts.and(page.locator('[data-level="hint"]'))).toHaveText(HINT)
  await expect(budgetAlerts.and(page.locator('[data-level="trip"]'))).toHaveText(TRIP)

  // The trip stopped both running agents; nothing after them started.
  await run.expectStatus('researcher', 'error')
  await run.expectStatus('critic', 'error')
  await run.expectStatus('writer', 'skipped')
  await run.expectStatus('memo', 'skipped')
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped')

  const guard = page.getByTestId('run-guard')
  await expect(guard).toHaveAttribute('data-level', 'trip')
  await expect(guard).toHaveText(
    /^Run budget exceeded at (Researcher|Critic): 10,000 tokens used of 9,000 tokens\. The run was stopped\.$/,
  )
  // The demo provider costs nothing: tokens only are the limit's unit, at $0.00.
  await expect(page.getByTestId('run-cost')).toHaveText('10,000 tokens · $0.00')
})

/** Input -> LLM (the demo, 26 tokens a reply) -> Output, its file limiting a run to 70 tokens. */
const batchFlow = {
  format: 'wardflow.workflow',
  version: 1,
  metadata: {
    id: 'batch-budget-e2e',
    name: 'Batch budget e2e',
    createdAt: '2026-12-03T00:00:00.000Z',
    updatedAt: '2026-12-03T00:00:00.000Z',
    limits: { maxRunTokens: 70 },
  },
  nodes: [
    {
      id: 'in',
      type: 'input',
      position: { x: 0, y: 0 },
      data: { label: 'In', config: { configVersion: 1, values: { question: 'unset' } } },
    },
    {
      id: 'ask',
      type: 'llm',
      position: { x: 300, y: 0 },
      data: {
        label: 'Ask',
        config: {
          configVersion: 1,
          provider: 'demo',
          prompt: '{{in.question}}',
          demoScript: {
            format: 'wardflow.demo-script',
            version: 1,
            replies: [{ text: 'Answered.', usage: { prompt: 20, completion: 6 } }],
            then: 'repeat-last',
          },
        },
      },
    },
    {
      id: 'out',
      type: 'output',
      position: { x: 600, y: 0 },
      data: { label: 'Out', config: { configVersion: 1, values: { answer: '{{ask.response}}' } } },
    },
  ],
  edges: [
    { id: 'e1', source: 'in', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'out' },
  ],
}

test("a batch's rows share the flow's run budget: the 3rd row stops it, the rest are skipped", async ({
  app,
  page,
}) => {
  await app.importWorkflow(jsonFile('batch-budget.wardflow.json', batchFlow))
  await expect(page.getByTestId('flow-node')).toHaveCount(3)
  await page.getByTestId('batch-open').click()
  const rows = ['question', 'q0', 'q1', 'q2', 'q3', 'q4'].join('\n')
  await page
    .getByTestId('batch-data-input')
    .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(`${rows}\n`, 'utf8') })
  await expect(page.getByTestId('batch-file')).toContainText('5 rows')
  // One row at a time, so which row crosses the line is fixed: 26 + 26 + 26 > 70.
  await page.getByTestId('batch-concurrency').fill('1')
  await page.getByTestId('batch-run').click()
  await expect(page.getByTestId('batch-summary')).toContainText('5 of 5 rows done, 3 failed', {
    timeout: STOP_WAIT_MS,
  })
  const status = (row: number) => page.locator(`[data-testid="batch-row"][data-row="${row}"]`)
  await expect(status(1)).toHaveAttribute('data-status', 'success')
  await expect(status(2)).toHaveAttribute('data-status', 'stopped')
  await expect(status(3)).toHaveAttribute('data-status', 'skipped')
  await expect(status(4)).toContainText("The batch's run budget is spent: 78 tokens used of 70 tokens.")
  // The screen words the amounts in the page's language (the row's error is the engine's English).
  await expect(page.getByTestId('batch-ended')).toHaveText('Stopped by its budget. 78 of 70 tokens used.')
})
