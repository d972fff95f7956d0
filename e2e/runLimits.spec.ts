/**
 * The whole-run budget from the browser (flow-control.md, "Whole-run budget, cost and
 * degenerate text"): a default token limit typed in Settings, Budget stops the "LLM chain"
 * template on the demo provider before its second model call (a `guard` alert of the budget
 * layer in that node's console, the `[Run Budget Exceeded]` line of a run-scope trip, later
 * nodes skipped, the run saved as stopped); then a limit typed for this flow in the inspector
 * (nothing selected) wins over the default and the same run finishes.
 */
import { expect, test } from './support/fixtures.ts'

// The chain's three demo calls use about 120 tokens each (reported by the demo provider): 150
// lets the first through (with the 80 % hint) and refuses the second before it is sent.
const DEFAULT_LIMIT = '150'
const FLOW_LIMIT = '5000'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('a settings default run budget stops the run; a per-flow limit from the inspector beats it', async ({
  app,
}) => {
  const { settings, templates, run, canvas, inspector, page } = app
  await settings.open()
  await settings.setDefaultRunTokens(DEFAULT_LIMIT)
  await settings.close()

  await templates.open()
  await templates.openTemplate('llm-chain')
  await run.start()
  await run.finished()

  const trip = run
    .console('critique')
    .locator('[data-testid="guard-alert"][data-layer="budget"][data-level="trip"]')
  await expect(trip).toHaveCount(1)
  await expect(trip).toHaveText(
    /^\[Run Budget Exceeded\] .* over its budget of 150 tokens\. Stopping the run\.$/,
  )
  await expect(
    run.console('draft').locator('[data-testid="guard-alert"][data-layer="budget"][data-level="hint"]'),
  ).toHaveText(/^\[Run Budget Warning\] The run has used \d+ tokens of its budget of 150 tokens\.$/)
  await run.expectStatus('polish', 'skipped')
  await run.expectStatus('result', 'skipped')
  await run.openHistory()
  await expect(run.historyItems.first()).toHaveAttribute('data-status', 'stopped')

  // Nothing selected: the inspector shows the flow's settings, with its own run budget.
  await canvas.clickEmpty()
  const tokens = inspector.flowLimit('tokens')
  await expect(tokens).toHaveValue('')
  await tokens.pressSequentially(FLOW_LIMIT)
  await expect(tokens).toHaveValue(FLOW_LIMIT)
  await run.start()
  await run.finished()

  await run.expectStatus('polish', 'success')
  await run.expectStatus('result', 'success')
  await expect(page.locator('[data-testid="guard-alert"][data-layer="budget"]')).toHaveCount(0)
  await expect(run.historyItems.first()).toHaveAttribute('data-status', 'success')
})
