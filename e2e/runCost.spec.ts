/**
 * The run's cost in the run panel (ui-contract `run-cost`): the "Budget burner" template runs
 * on the built-in demo provider, whose scripted replies report their usage; the demo provider
 * costs nothing, so the figure shows the run's tokens and $0.00, its by-node table names the
 * Agent, and the saved run shows the same dollars in the history.
 */
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('a demo run shows its tokens and $0.00 in run-cost, by node, and in the history', async ({ app }) => {
  const { run, templates, page } = app
  await templates.open()
  await templates.openTemplate('budget-burner')
  await run.start()
  await run.finished()

  const cost = page.getByTestId('run-cost')
  await expect(cost).toHaveText(/^[\d,]+ tokens · \$0\.00$/)
  const counted = /^([\d,]+) tokens/.exec((await cost.textContent()) ?? '')?.[1] ?? '0'
  expect(Number(counted.replace(/,/g, ''))).toBeGreaterThan(0)

  await cost.locator('summary').click()
  const row = cost.getByRole('row', { name: /Analyst \(expensive\)/ })
  await expect(row).toContainText('$0.00')

  await run.openHistory()
  await expect(run.historyItems.first()).toContainText(/tokens · \$0\.00/)
})
