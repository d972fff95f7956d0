/**
 * A past run is a view: with a saved run open from the History tab, nothing a person does on
 * the canvas, in the palette, the inspector or the toolbar changes the flow, and nothing is
 * saved. Back on the live flow, and after a reload, the flow is exactly as it was.
 */
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

interface FlowShape {
  ids: string[]
  edges: number
  titles: string[]
  /** Each node's place on the flow (React Flow's translate of the node), whatever the zoom. */
  places: string[]
  name: string
}

/** What a person sees of the flow: its nodes, their titles and places, its edges and its name. */
async function shapeOf(app: WardflowApp): Promise<FlowShape> {
  const ids = await app.canvas.nodeIds()
  const titles: string[] = []
  const places: string[] = []
  for (const id of ids) {
    titles.push((await app.canvas.node(id).locator('.wf-node__title').textContent()) ?? '')
    const wrapper = app.page.locator(`.react-flow__node[data-id="${id}"]`)
    places.push(await wrapper.evaluate((el) => (el as HTMLElement).style.transform))
  }
  const name = await app.page.getByRole('textbox', { name: 'Flow name' }).inputValue()
  return { ids, edges: await app.canvas.edges.count(), titles, places, name }
}

test('with a past run open, Delete, drags, the palette, renames, paste and undo change nothing', async ({
  app,
  page,
  context,
}) => {
  // Many steps, each a person's action: a busy machine needs more than the default minute.
  test.slow()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const { canvas, run, inspector } = app
  const input = await canvas.dragFromPalette('input', await canvas.pointAt(0.2, 0.3))
  const code = await canvas.dragFromPalette('code', await canvas.pointAt(0.6, 0.3))
  await canvas.connect(input, code)
  await expect(canvas.edges).toHaveCount(1)
  await run.start()
  await run.expectStatus(code, 'success')
  await run.finished()
  await app.saved()
  // Something to paste later: the Input node, copied while the flow was live.
  await canvas.select(input)
  await page.keyboard.press('ControlOrMeta+C')
  await expect(canvas.notes).toContainText('Copied 1 node')

  const before = await shapeOf(app)
  await run.openPastRun()

  // Delete the selected node, and Backspace.
  await canvas.select(code)
  await page.keyboard.press('Delete')
  await page.keyboard.press('Backspace')
  await expect(canvas.notes).toContainText('past run')
  // Drag a node by its header.
  await canvas.moveNode(code, 120, 90)
  // The palette: its entries are off, and a forced click or a drag adds nothing.
  await expect(canvas.paletteItem('llm')).toBeDisabled()
  await canvas.paletteItem('llm').click({ force: true })
  await canvas
    .paletteItem('template')
    .dragTo(canvas.surface, { force: true, targetPosition: { x: 300, y: 400 } })
  // Rename the node on the canvas (double-click its title) and in the inspector.
  await canvas.node(code).locator('.wf-node__title').dblclick()
  await expect(canvas.node(code).getByRole('textbox')).toHaveCount(0)
  // (A double-click zooms the view in, which a view may do; fit the flow in view again.)
  await page.getByRole('button', { name: 'Fit view' }).click()
  await inspector.shows(code)
  await expect(inspector.title).not.toBeEditable()
  await inspector.title.click()
  await page.keyboard.type('Renamed')
  // The code editor is read-only too.
  const editor = inspector.fieldBox('Code')
  await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 20_000 })
  await editor.locator('.view-lines').click()
  await page.keyboard.type('broken ')
  // The flow's name.
  const flowName = page.getByRole('textbox', { name: 'Flow name' })
  await expect(flowName).not.toBeEditable()
  // Paste, duplicate, undo, connect.
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  await canvas.select(input)
  await page.keyboard.press('ControlOrMeta+D')
  await page.keyboard.press('ControlOrMeta+Z')
  await expect(app.undoButton).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Delete selection' })).toBeDisabled()

  expect(await shapeOf(app), 'the past run view changed nothing').toEqual(before)
  await expect(app.saveStatus).toHaveAttribute('data-status', 'saved')

  await run.backToLive()
  expect(await shapeOf(app), 'the live flow is unchanged').toEqual(before)
  await expect(canvas.paletteItem('llm')).toBeEnabled()
  await inspector.shows(input)
  await expect(inspector.title).toBeEditable()
  await app.reload()
  expect(await shapeOf(app), 'the saved flow is unchanged').toEqual(before)
  await canvas.select(code)
  await expect.poll(() => inspector.editorText(inspector.fieldBox('Code'))).not.toContain('broken')
})
