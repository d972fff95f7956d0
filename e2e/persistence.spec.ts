/**
 * No edit is lost: a reload right after a typing burst (issue 23, item 8) and two tabs editing
 * one flow (issue 16, item 4).
 */
import { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test, watchProblems } from './support/fixtures.ts'

test('a reload right after a 4 s typing burst keeps every key', async ({ app, page }) => {
  const { canvas, inspector } = app
  await app.open()
  const id = await canvas.addByClick('template')
  await canvas.select(id)
  await app.saved()
  const field = inspector.field('Template')
  await field.click()
  // About 4 s of typing, one key every 40 ms, then a reload 0.3 s after the last key.
  const burst = 'Every key of this burst must survive the reload right after it!!!!!!!!!!!!!'
  await page.keyboard.type(burst, { delay: 40 })
  await page.waitForTimeout(300)
  await app.reload()
  await canvas.select(id)
  await expect(inspector.field('Template')).toHaveValue(burst)
  // What came back was written to the database too: a second reload still has it.
  await app.reload()
  await canvas.select(id)
  await expect(inspector.field('Template')).toHaveValue(burst)
})

test('two tabs add a node each to one flow: both tabs show both, and both survive a reload', async ({
  app,
  page,
}) => {
  await app.open()
  await expect(app.flows.items).toHaveCount(1)
  const other = await page.context().newPage()
  const otherProblems = watchProblems(other, null)
  const second = new WardflowApp(other)
  await second.open()
  const flowId = await app.flows.current().getAttribute('data-flow-id')
  await expect(second.flows.current()).toHaveAttribute('data-flow-id', flowId ?? '')

  // At the same time, before either tab saved: both call their node template_1.
  // (Clicks on the palette: a node from the other tab may already have arrived meanwhile.)
  await app.canvas.paletteItem('template').click()
  await second.canvas.paletteItem('template').click()
  await expect(app.canvas.nodes).toHaveCount(2, { timeout: 15_000 })
  await expect(second.canvas.nodes).toHaveCount(2, { timeout: 15_000 })

  // One after the other, each tab seeing the other's node first.
  await app.canvas.dragFromPalette('input', await app.canvas.pointAt(0.3, 0.7))
  await expect(second.canvas.nodes).toHaveCount(3, { timeout: 15_000 })
  await second.canvas.addByClick('output')
  await expect(app.canvas.nodes).toHaveCount(4, { timeout: 15_000 })
  await app.saved()
  await second.saved()

  await app.reload()
  await expect(app.canvas.nodes).toHaveCount(4)
  await expect(app.canvas.nodesOfType('template')).toHaveCount(2)
  await second.reload()
  expect(await second.canvas.nodeIds()).toEqual(await app.canvas.nodeIds())
  await expect(app.errorBanner).toBeHidden()
  expect(otherProblems.list).toEqual([])
})
