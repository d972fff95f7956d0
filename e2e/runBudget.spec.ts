/**
 * The whole-run budget in the browser: the "Team on a budget" template (three demo Agents, a
 * 9,000-token `metadata.limits`) opens from the gallery and runs. The researcher and the critic
 * share the run's ledger: the 4th call passes 80 % (a hint), the 5th crosses the limit (a trip),
 * both running agents stop, the writer and the memo are skipped (budget), the run ends stopped,
 * and the run panel shows the stop (`run-guard`) and the tokens spent (`run-cost`).
 */
import { expect, test } from './support/fixtures.ts'

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
