/**
 * `{{` completion in the Monaco editor of a template field: typed by keyboard, a suggestion
 * picked with the arrows and Enter, the upstream schema field lands in the text.
 */
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('typing {{ in the code editor offers the upstream schema fields; arrows and Enter pick one', async ({
  app,
  page,
}) => {
  const { canvas, inspector } = app
  await page.getByRole('button', { name: 'Zoom out', exact: true }).click()
  const llm = await canvas.dragFromPalette('llm', await canvas.pointAt(0.2, 0.4))
  const text = await canvas.dragFromPalette('template', await canvas.pointAt(0.6, 0.4))
  await canvas.connect(llm, text)
  await canvas.select(llm)
  await inspector.shows(llm)
  await inspector.enableOutputSchema()
  await inspector.addSchemaField({ name: 'intent', type: 'one of', values: 'refund, question' })
  await inspector.addSchemaField({ name: 'urgency', type: 'whole number' })

  await canvas.select(text)
  await inspector.shows(text)
  const box = inspector.fieldBox('Template')
  await box.getByRole('button', { name: 'Open in code editor' }).click()
  await inspector.typeInEditor(box, `Urgency {{${llm}.data.`)
  const rows = page.locator('.suggest-widget .monaco-list-row')
  await expect(rows.first()).toBeVisible()
  await expect(rows).toHaveText(
    [`{{${llm}.data.intent}}`, `{{${llm}.data.urgency}}`].map(
      (r) => new RegExp(r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    ),
  )
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect.poll(() => inspector.editorText(box)).toBe(`Urgency {{${llm}.data.urgency}}`)
  await box.getByRole('button', { name: 'Back to plain text' }).click()
  await expect(box.locator('textarea')).toHaveValue(`Urgency {{${llm}.data.urgency}}`)
})
