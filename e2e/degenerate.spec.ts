/**
 * The repetitive-text guard in the page: the "Repetitive text guard" template's scripted model
 * starts repeating one sentence while it streams; the node's console shows the trip alert, the
 * stream stops (the console keeps only the text so far), the node ends stopped with its badge,
 * and the Summary receives what was written.
 */
import { expect, test } from './support/fixtures.ts'

const TRIP =
  /^\[Degenerate Text Protection\] Tripped: the reply repeated ".+" \d+ times close together\. Stream aborted to prevent token waste\.$/
const SENTENCE = 'The committee will review the proposal at its next meeting.'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('a reply that repeats itself is stopped in its console and the text so far reaches the Summary', async ({
  app,
}) => {
  const { canvas, run, templates } = app
  await templates.open()
  await templates.openTemplate('repeating-writer')
  await expect(canvas.node('writer')).toHaveAttribute('data-node-type', 'llm')
  await run.start()

  const trip = canvas.guardAlerts('writer').and(app.page.locator('[data-layer="loop"][data-level="trip"]'))
  await expect(trip).toHaveText(TRIP, { timeout: 20_000 })
  await expect(canvas.guardAlerts('writer')).toHaveCount(1)
  await run.expectStatus('writer', 'stopped')
  await expect(canvas.node('writer')).toContainText('Repetitive text stopped')

  // The stream was cut: the console holds the start of the reply and a few repeats, not seventy.
  const consoleText = (await canvas.console('writer').textContent()) ?? ''
  expect(consoleText).toContain('The budget was approved with two small changes')
  const repeats = consoleText.split(SENTENCE).length - 1
  expect(repeats).toBeGreaterThan(2)
  expect(repeats).toBeLessThan(30)

  await run.expectStatus('summary', 'success')
  await expect(canvas.console('summary')).toContainText('The budget was approved with two small changes')
})
