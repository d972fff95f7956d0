/**
 * Knowledge (issue 18, items 4-5): a base made on the Knowledge screen by dropping Markdown,
 * HTML and PDF files, listed with chunk counts; a flow's Knowledge node searches it and its
 * console and the Output show the cited chunks with their sources.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from './support/fixtures.ts'

const PDF = readFileSync(new URL('./fixtures/warranty.pdf', import.meta.url)).toString('base64')

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('documents dropped on a new base answer a question in a flow, with their sources cited', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000)
  const { canvas, inspector, run, knowledge } = app

  await knowledge.open()
  await knowledge.createBase('kb_help', 'Help pages')
  await knowledge.dropFiles([
    {
      name: 'refunds.md',
      type: 'text/markdown',
      content:
        '# Refunds\n\nA refund is paid within 14 days of the request. Send the order number to billing.',
    },
    {
      name: 'shipping.html',
      type: 'text/html',
      content:
        '<h1>Shipping</h1><p>Parcels leave Rotterdam daily.</p><img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>',
    },
    { name: 'warranty.pdf', type: 'application/pdf', content: PDF, base64: true },
    { name: 'photo.png', type: 'image/png', content: 'not text' },
  ])
  await expect(knowledge.outcomes).toContainText('refunds.md: added, 1 chunks.')
  await expect(knowledge.outcomes).toContainText('warranty.pdf: added')
  await expect(knowledge.outcomes).toContainText('photo.png: not added.')
  await expect(knowledge.documents).toHaveCount(3)
  await expect(knowledge.document('warranty.pdf')).toHaveAttribute('data-chunks', '1')
  await expect(knowledge.base('kb_help')).toContainText('3 documents · 3 chunks')
  // HTML is read as text: nothing of it ran.
  expect(await page.title()).not.toBe('pwned')
  await knowledge.close()

  // Input -> Knowledge (kb_help) -> Output.
  // Dropped apart in the canvas's own terms (a zigzag), so the flow fits whatever is left of
  // the canvas beside the panels and the problems list, and no node covers another's handle.
  const input = await canvas.addAt('input', 0.3, 0.25)
  const search = await canvas.addAt('knowledge', 0.5, 0.65)
  const output = await canvas.addAt('output', 0.75, 0.25)
  await canvas.fitView()
  await canvas.connect(input, search)
  await canvas.connect(search, output)
  await canvas.select(input)
  await inspector.shows(input)
  await inspector.typeInto(inspector.recordValue('Values', 1), 'how long until my refund is paid')
  await canvas.select(search)
  await inspector.shows(search)
  await inspector.typeInto(inspector.field('Knowledge base'), 'kb_help')
  await inspector.field('Query').fill('')
  await inspector.typeInto(inspector.field('Query'), `{{${input}.question}}`)
  await canvas.select(output)
  await inspector.shows(output)
  await inspector.typeInto(inspector.recordName('Values', 1), 'cited')
  await inspector.typeInto(inspector.recordValue('Values', 1), `{{${search}.result}}`)

  await run.start()
  await run.finished()
  await run.expectStatus(search, 'success')
  await run.expectStatus(output, 'success')
  await expect(run.console(search)).toContainText('[1] refunds.md ·')
  await expect(run.console(search)).toContainText('A refund is paid within 14 days')
  await expect(run.console(output)).toContainText('[1] refunds.md (score')

  // A document deleted from the base is no longer found.
  await knowledge.open()
  await knowledge.document('refunds.md').getByTestId('knowledge-delete-document').click()
  await expect(knowledge.documents).toHaveCount(2)
  await knowledge.close()
  await run.start()
  await run.finished()
  await expect(run.console(search)).not.toContainText('refunds.md')
})

test('a Knowledge node naming a base that is not there fails saying how to add it', async ({ app }) => {
  test.setTimeout(90_000)
  const { canvas, inspector, run } = app
  // Dropped apart in the canvas's own terms (a zigzag), so the flow fits whatever is left of
  // the canvas beside the panels and the problems list, and no node covers another's handle.
  const input = await canvas.addAt('input', 0.3, 0.25)
  const search = await canvas.addAt('knowledge', 0.5, 0.65)
  const output = await canvas.addAt('output', 0.75, 0.25)
  await canvas.fitView()
  await canvas.connect(input, search)
  await canvas.connect(search, output)
  await canvas.select(input)
  await inspector.shows(input)
  await inspector.typeInto(inspector.recordValue('Values', 1), 'anything')
  await canvas.select(search)
  await inspector.shows(search)
  await inspector.typeInto(inspector.field('Knowledge base'), 'kb_missing')
  await inspector.field('Query').fill('')
  await inspector.typeInto(inspector.field('Query'), `{{${input}.question}}`)
  await run.start()
  await run.finished()
  await expect(run.errorBanner).toHaveCount(0)
  await run.expectStatus(search, 'error')
  await expect(run.node(search)).toContainText(
    'Knowledge in the toolbar, then New base with the id "kb_missing"',
  )
})
