/**
 * What was asked and answered, per model call (issue 19): after a run, the selected LLM node's
 * details list its model call; opened, it shows the request's messages and parameters and the
 * raw reply, as text.
 */
import { expect, test } from './support/fixtures.ts'

test("a node's model calls show the exact request and the raw reply after the run", async ({ app }) => {
  test.slow()
  const { templates, run, canvas, inspector, page } = app
  await app.open()
  await templates.open()
  await templates.openTemplate('llm-chain')
  await run.start()
  await run.finished(45_000)
  const reply = (await run.consoleText('draft')).trim()
  expect(reply).not.toBe('')

  await canvas.select('draft')
  await inspector.shows('draft')
  const calls = page.getByTestId('node-run-details').getByTestId('node-model-calls')
  await expect(calls).toHaveAttribute('data-count', '1')
  await calls.locator('summary').first().click()
  const call = calls.getByTestId('node-model-call')
  await expect(call).toHaveCount(1)
  await call.locator('summary').click()
  // The system prompt and the prompt the template made, as sent; the parameters; the reply.
  await expect(call.locator('pre[data-part="messages"]')).toContainText('You are a concise technical writer.')
  await expect(call.locator('pre[data-part="parameters"]')).toContainText('1024')
  await expect(call.locator('pre[data-part="reply"]')).toContainText(reply.slice(0, 40))
})
