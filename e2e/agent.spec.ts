/**
 * The guarded Agent with the offline demo provider: the stuck agent (repeat hint, then the
 * deadlock trip), the alternating agent (cycle hint, then trip) and the budget burner (budget
 * stop), each ending with the Output node receiving the answer the loop could still give.
 * Alert texts are the exact lines of the guard spec (docs/guard.md).
 */
import type { Locator } from '@playwright/test'
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

const STUCK_HINT =
  '[System Hint: You invoked tool "query_orders" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]'
const STUCK_TRIP =
  '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_orders". Terminating loop to prevent token waste.'

/**
 * How long a demo agent may take to reach its trip. Each run is a dozen streamed turns of the demo
 * provider (timers, every chunk drawn): about 5 s on an idle machine, and CI shares its 2 cores
 * with the other worker, so the wait is generous and the test's own timeout is raised with it.
 */
const TRIP_WAIT_MS = 45_000

test.beforeEach(async ({ app }) => {
  test.setTimeout(120_000)
  await app.open()
})

/** The node's guard alerts as [layer, level, text], in console order. */
async function alertsOf(alerts: Locator): Promise<Array<[string, string, string]>> {
  return alerts.evaluateAll((els) =>
    els.map((el): [string, string, string] => [
      el.getAttribute('data-layer') ?? '',
      el.getAttribute('data-level') ?? '',
      el.textContent ?? '',
    ]),
  )
}

async function openFromGallery(app: WardflowApp, id: string): Promise<void> {
  await app.templates.open()
  await app.templates.openTemplate(id)
}

test('the stuck agent gets a hint, then the deadlock breaker trips, and the answer reaches the Output', async ({
  app,
}) => {
  const { canvas, run, templates } = app
  // First visit: one click opens the demo, a second runs it; nothing asks for a key.
  await templates.loopBreakerButton().click()
  await expect(canvas.node('agent')).toBeVisible()
  await expect(canvas.node('agent')).toHaveAttribute('data-node-type', 'agent')
  await run.start()

  const alerts = canvas.guardAlerts('agent')
  const hint = alerts.and(app.page.locator('[data-layer="loop"][data-level="hint"]'))
  const trip = alerts.and(app.page.locator('[data-layer="loop"][data-level="trip"]'))
  await expect(hint).toHaveText(STUCK_HINT, { timeout: TRIP_WAIT_MS })
  await expect(trip).toHaveText(STUCK_TRIP, { timeout: TRIP_WAIT_MS })
  expect(await alertsOf(alerts), 'the hint comes before the trip').toEqual([
    ['loop', 'hint', STUCK_HINT],
    ['loop', 'trip', STUCK_TRIP],
  ])
  await expect(canvas.node('agent')).toContainText('Deadlock breaker tripped')

  await run.expectStatus('answer', 'success')
  await expect(canvas.console('answer')).toContainText(
    'I checked the order system three times and found no pending orders for customer C-1042.',
  )
  await expect(run.result).toContainText('I checked the order system three times')
  await expect(app.page.getByTestId('passphrase-dialog')).toHaveCount(0)
  await expect(app.settings.dialog).toBeHidden()

  // The run record is listed, survives a reload and re-opens with its guard alerts.
  const history = app.page.getByRole('tab', { name: 'History' })
  const records = app.page.getByTestId('run-history-item')
  await history.click()
  await expect(records).toHaveCount(1)
  await app.reload()
  await expect(canvas.node('agent')).toBeVisible()
  await history.click()
  await expect(records).toHaveCount(1)
  await records.first().getByRole('button').click()
  await expect(canvas.guardAlerts('agent')).toHaveText([STUCK_HINT, STUCK_TRIP])
  await expect(canvas.console('answer')).toContainText('I checked the order system three times')
})

test('the alternating agent gets a cycle hint, then the cycle trips', async ({ app }) => {
  const { canvas, run } = app
  await openFromGallery(app, 'alternating-agent')
  await run.start()

  const alerts = canvas.guardAlerts('agent')
  const trip = alerts.and(app.page.locator('[data-layer="loop"][data-level="trip"]'))
  await expect(trip).toHaveCount(1, { timeout: TRIP_WAIT_MS })
  const seen = await alertsOf(alerts)
  expect(seen.map(([layer, level]) => `${layer}/${level}`)).toEqual(['loop/hint', 'loop/trip'])
  const [hintText, tripText] = seen.map(([, , text]) => text)
  // The hint names the repeated sequence; the trip line names the cycle (guard spec, cycles).
  expect(hintText).toMatch(
    /^\[System Hint: .*"check_inventory".*"check_supplier".*synthesize your final answer\.\]$/,
  )
  expect(tripText).toMatch(
    /^\[Agent Deadlock Protection\] Tripped: .*"check_inventory".*"check_supplier".*Terminating loop to prevent token waste\.$/,
  )
  await expect(canvas.node('agent')).toContainText('Deadlock breaker tripped')

  await run.expectStatus('answer', 'success')
  await expect(canvas.console('answer')).toContainText('The blue kettle (K-220) is out of stock')
})

test('the budget burner stops at its token budget and the Output still gets the partial answer', async ({
  app,
}) => {
  const { canvas, run } = app
  await openFromGallery(app, 'budget-burner')
  await run.start()

  const alerts = canvas.guardAlerts('agent')
  const trip = alerts.and(app.page.locator('[data-layer="budget"][data-level="trip"]'))
  await expect(trip).toHaveCount(1, { timeout: TRIP_WAIT_MS })
  const text = (await trip.textContent()) ?? ''
  const match =
    /^\[Agent Token Budget Exceeded\] Total (\d+) tokens (?:reached|plus about \d+ for the next call would exceed) budget limit of 6000\. Terminating loop\.$/.exec(
      text,
    )
  expect(match, `budget line: ${text}`).not.toBeNull()
  await expect(alerts.and(app.page.locator('[data-layer="loop"]'))).toHaveCount(0)
  await expect(canvas.node('agent')).toHaveAttribute('data-status', 'stopped')

  await run.expectStatus('report', 'success')
  await expect(canvas.console('report')).toContainText('Market: the sample results describe steady growth')
  await expect(canvas.console('report')).toContainText('budget')
})
