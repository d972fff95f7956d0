/**
 * Human approval in the browser: an Agent tool set to "Ask before each call" in the inspector
 * pauses the run on an `approval-request` card in the Agent's console; arguments that are not
 * JSON are refused with a reason, an approved call runs, a rejected one is declined, "always"
 * approves the rest of the run's calls of that tool, and the run goes on to its answer.
 * A reload while a card waits keeps it: after the reload the card is back, and approving or
 * rejecting it continues the run from the Agent with that decision for the same call.
 */
import type { Page } from '@playwright/test'
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

test('an Agent tool set to ask pauses on a card: bad JSON refused, approve runs it, reject declines it, always stops asking', async ({
  app,
}) => {
  test.setTimeout(120_000)
  const { canvas, inspector, run, templates, page } = app
  await app.open()
  await templates.open()
  await templates.openTemplate('stuck-agent')
  await canvas.select('agent')
  const tool = inspector.root.getByTestId('tool-card')
  // A single tool's card opens on its own; open it if it is not.
  const toggle = tool.locator('.wf-tool__toggle')
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await tool.getByLabel('Approval').selectOption({ label: 'Ask before each call' })
  await expect(tool.getByLabel('Approval')).toHaveValue('ask')

  await run.start()
  const card = canvas.console('agent').getByTestId('approval-request')
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await expect(card).toContainText('The Agent wants to call query_orders')
  const args = card.getByRole('textbox')
  await expect(args).toHaveValue(/"customerId":\s*"C-1042"/)

  // Not JSON: refused with the reason, nothing sent; fixed, it goes through.
  const original = await args.inputValue()
  await args.fill('{ "status": ')
  await card.getByTestId('approval-approve').click()
  await expect(card.getByRole('alert')).toHaveText(
    'The arguments are not valid JSON; fix them before approving.',
  )
  await args.fill(original)
  await card.getByTestId('approval-approve').click()

  // The model asks again (same call): this time the person says no.
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await card.getByTestId('approval-reject').click()
  await expect(canvas.console('agent')).toContainText('Observation: The user declined this call.')

  // The decline changed the call's result, so the loop breaker counts the next try as progress
  // (guard spec, progress-aware): it asks again. "Always for this tool in this run" ends asking.
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await card.getByLabel('Always for this tool in this run').check()
  await card.getByTestId('approval-approve').click()

  await run.expectStatus('answer', 'success', 45_000)
  await expect(page.getByTestId('approval-request')).toHaveCount(0)
})

/** Rows in the app's `approvals` table (IndexedDB `wardflow`, Dexie v6): the question is stored. */
async function storedApprovals(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('wardflow')
        open.onerror = () => resolve(-1)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('approvals')) {
            db.close()
            resolve(0)
            return
          }
          const count = db.transaction('approvals').objectStore('approvals').count()
          count.onsuccess = () => {
            db.close()
            resolve(count.result)
          }
          count.onerror = () => resolve(-1)
        }
      }),
  )
}

/**
 * Opens stuck-agent with its tool set to ask, runs it to the first card, waits until the question
 * is stored, and reloads. Returns the Agent console's card locator.
 */
async function pauseThenReload(app: WardflowApp) {
  const { canvas, inspector, run, templates, page } = app
  await app.open()
  await templates.open()
  await templates.openTemplate('stuck-agent')
  await canvas.select('agent')
  const tool = inspector.root.getByTestId('tool-card')
  const toggle = tool.locator('.wf-tool__toggle')
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await tool.getByLabel('Approval').selectOption({ label: 'Ask before each call' })
  await run.start()
  const card = canvas.console('agent').getByTestId('approval-request')
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await expect.poll(() => storedApprovals(page), { timeout: 10_000 }).toBe(1)
  await app.reload()
  return card
}

test('reload while paused on a card, then approve after the reload: the run continues from the Agent', async ({
  app,
}) => {
  test.setTimeout(150_000)
  const { canvas, run, page } = app
  const card = await pauseThenReload(app)

  // After the reload: the run as it stood, the Agent still waiting, the same card, saying what
  // answering it now does.
  await expect(card).toHaveCount(1, { timeout: 30_000 })
  await expect(card).toContainText('The Agent wants to call query_orders')
  await expect(card).toContainText('Paused before the page reloaded')
  await expect(card.getByRole('textbox')).toHaveValue(/"customerId":\s*"C-1042"/)
  await run.expectStatus('question', 'success')
  await run.expectStatus('agent', 'running')
  await card.getByTestId('approval-approve').click()

  // The continued run: the question's output is reused, the Agent starts again and the model's
  // same first call runs without asking (its result is in the console before the next card);
  // the next call asks on a live card.
  await expect(run.cached('question')).toHaveAttribute('data-reason', 'reused', { timeout: 30_000 })
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await expect(card).not.toContainText('Paused before the page reloaded')
  await expect(canvas.console('agent')).toContainText('← []')
  await card.getByLabel('Always for this tool in this run').check()
  await card.getByTestId('approval-approve').click()
  await run.expectStatus('answer', 'success', 45_000)
  await expect(page.getByTestId('approval-request')).toHaveCount(0)
  await expect.poll(() => storedApprovals(page), { timeout: 10_000 }).toBe(0)

  await run.openHistory()
  await expect(run.historyItems).toHaveCount(2)
  await expect(run.historyItems.first()).toHaveAttribute('data-status', 'success')
  await expect(run.historyItems.nth(1)).toHaveAttribute('data-status', 'interrupted')
})

test('reload while paused, then reject after the reload: the continued run declines that call', async ({
  app,
}) => {
  test.setTimeout(150_000)
  const { canvas, run } = app
  const card = await pauseThenReload(app)

  await expect(card).toContainText('Paused before the page reloaded', { timeout: 30_000 })
  await card.getByTestId('approval-reject').click()
  // The same first call, declined without asking: the model reads the contract's observation.
  await expect(canvas.console('agent')).toContainText('Observation: The user declined this call.', {
    timeout: 45_000,
  })
  await expect(card).toHaveCount(1, { timeout: 45_000 })
  await expect(card).not.toContainText('Paused before the page reloaded')
  await card.getByLabel('Always for this tool in this run').check()
  await card.getByTestId('approval-approve').click()
  await run.expectStatus('answer', 'success', 45_000)
})
