/**
 * The real PatchCat router (../shared/fixtures/patchcat/, a folder beside the repository, never
 * copied into it) imported through the toolbar's file chooser and run: the branch its ticket's
 * category implies runs, the other two are skipped as not taken. Without the folder the test is
 * skipped and says why.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from './support/fixtures.ts'
import { jsonFile } from './support/files.ts'

const ROUTER = fileURLToPath(
  new URL('../../shared/fixtures/patchcat/en-conditional-customer-routing.json', import.meta.url),
)
const present = existsSync(ROUTER)
const MISSING = `PatchCat router not found at ${ROUTER}: the browser run of the real router is SKIPPED`
if (!present) console.warn(`[e2e] WARNING: ${MISSING}.`)

const PROMPTS = ['prompt_tech', 'prompt_billing', 'prompt_general']

test('the real PatchCat router, imported from a file, runs the branch its category implies', async ({
  app,
}) => {
  test.skip(!present, MISSING)
  const { canvas, flows, run, inspector } = app
  await app.open()
  await app.importWorkflow(jsonFile('en-conditional-customer-routing.json', readFileSync(ROUTER, 'utf8')))
  await expect(flows.current()).toContainText('Conditional')
  await expect(canvas.nodes).toHaveCount(7)
  await expect(canvas.nodesOfType('condition')).toHaveCount(1)
  await expect(canvas.nodesOfType('merge')).toHaveCount(1)
  await expect(canvas.nodesOfType('unsupported')).toHaveCount(0)

  // The file's own ticket says "technical".
  await run.start()
  await run.finished()
  await run.expectStatus('prompt_tech', 'success')
  for (const id of ['prompt_billing', 'prompt_general']) {
    await run.expectStatus(id, 'skipped')
    // The node's run details (inspector) say why it was skipped.
    await canvas.select(id)
    const details = app.page.getByTestId('node-run-details')
    await expect(details).toHaveAttribute('data-status', 'skipped')
    await expect(details).toContainText('Not taken')
  }
  for (const id of ['input_ticket', 'cond_router', 'aggregator_response', 'output_result'])
    await run.expectStatus(id, 'success')
  await expect(run.result).toContainText('senior DevOps')
  await expect(app.errorBanner).toHaveCount(0)

  // The same flow with the category a person types in upper case: PatchCat compared it
  // ignoring case, and so does the converted condition.
  await canvas.select('input_ticket')
  const category = inspector.recordValue('Values', 1)
  await expect(category).toHaveValue('technical')
  await inspector.typeInto(category, 'BILLING')
  await canvas.clickEmpty()
  await run.start()
  await run.finished()
  await run.expectStatus('prompt_billing', 'success')
  for (const id of PROMPTS.filter((p) => p !== 'prompt_billing')) await run.expectStatus(id, 'skipped')
  await expect(run.result).toContainText('billing specialist')
  await expect(run.result).not.toContainText('senior DevOps')
})
