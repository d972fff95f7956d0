/**
 * Building and editing flows on the canvas: palette drag and click, connections and refused
 * loops, undo/redo, inspector edits, copy/paste between flows, delete, reload, languages and
 * the flow list.
 */
import { NODE_TYPES, type CanvasPage, type Point } from './pages/CanvasPage.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('each of the seven node types dragged from the palette lands under the pointer', async ({ app }) => {
  const { canvas } = app
  await expect(canvas.welcome).toBeVisible()
  // Drop points in canvas pixels, spread out; the first avoids the welcome card in the middle.
  // Their heights sit 7 px past a grid line (16 px): the worst case for snapping, where a node
  // centred on a wrong nominal height ends just above the pointer.
  const spots: Array<[number, number]> = [
    [140, 87],
    [520, 87],
    [140, 215],
    [520, 215],
    [140, 343],
    [520, 343],
    [330, 471],
  ]
  for (const [i, type] of NODE_TYPES.entries()) {
    const [dx, dy] = spots[i] ?? [300, 300]
    const origin = await canvas.box()
    const drop = { x: origin.x + dx, y: origin.y + dy }
    const id = await canvas.dragFromPalette(type, drop)
    const box = await canvas.node(id).boundingBox()
    expect(box, `${type} node is visible`).not.toBeNull()
    if (!box) continue
    expect(
      contains(box, drop),
      `${type} node ${JSON.stringify(box)} lies under the drop point ${JSON.stringify(drop)}`,
    ).toBe(true)
    if (i === 0) await expect(canvas.welcome).toBeHidden()
  }
  await expect(canvas.nodes).toHaveCount(7)
  for (const type of NODE_TYPES) await expect(canvas.nodesOfType(type)).toHaveCount(1)
})

/**
 * Where the app puts a node added at the centre of the view (the app's numbers, in flow pixels):
 * its nominal box (NODE_WIDTH_PX x NODE_HEIGHT_PX) centred there, snapped to the grid
 * (SNAP_GRID_PX). While another node covers that place it steps down the diagonal by
 * PASTE_OFFSET_PX until it overlaps none, so repeated adds fan out.
 */
const NOMINAL = { width: 260, height: 56 }
const GRID_PX = 16
const FAN_OUT_STEP_PX = 32

/** The screen point where a node added at the centre now starts, before any fan-out. */
async function centreStart(canvas: CanvasPage): Promise<Point> {
  const box = await canvas.box()
  const vp = await canvas.viewport()
  const toFlow = (screen: number, origin: number, pan: number) => (screen - origin - pan) / vp.zoom
  const snap = (v: number) => Math.round(v / GRID_PX) * GRID_PX
  const x = snap(toFlow(box.x + box.width / 2, box.x, vp.x) - NOMINAL.width / 2)
  const y = snap(toFlow(box.y + box.height / 2, box.y, vp.y) - NOMINAL.height / 2)
  return { x: box.x + vp.x + x * vp.zoom, y: box.y + vp.y + y * vp.zoom }
}

test('a click or Enter on a palette entry adds the node at the centre of the view', async ({ app }) => {
  const { canvas } = app
  const centre = await canvas.pointAt(0.5, 0.5)
  const firstStart = await centreStart(canvas)
  const clicked = await canvas.addByClick('llm')
  const clickedBox = await canvas.node(clicked).boundingBox()
  expect(clickedBox && contains(clickedBox, centre), 'clicked node covers the centre').toBe(true)
  if (!clickedBox) return
  expect(Math.abs(clickedBox.x - firstStart.x), 'x at the centre').toBeLessThan(1)
  expect(Math.abs(clickedBox.y - firstStart.y), 'y at the centre').toBeLessThan(1)

  // The centre of the view as it is now: the first node's problem (no prompt), found by the
  // debounced check, opens the problems list under the canvas, which makes the canvas shorter
  // and its centre higher. Measured once it is there, so the add sees the same centre.
  await expect(app.page.getByRole('region', { name: 'Problems' })).toContainText(
    'Write a prompt for the model.',
  )
  const start = await centreStart(canvas)
  const entered = await canvas.addByKeyboard('template')
  const enteredBox = await canvas.node(entered).boundingBox()
  expect(enteredBox, 'the node added with Enter is visible').not.toBeNull()
  if (enteredBox) {
    // As many diagonal steps as it takes for its top to clear the first node's bottom.
    const step = FAN_OUT_STEP_PX * (await canvas.viewport()).zoom
    const steps = Math.max(0, Math.ceil((clickedBox.y + clickedBox.height - start.y - 0.5) / step))
    expect(steps, 'steps needed to clear the first node').toBeGreaterThanOrEqual(1)
    expect(Math.abs(enteredBox.x - (start.x + steps * step)), 'x after the fan-out').toBeLessThan(1)
    expect(Math.abs(enteredBox.y - (start.y + steps * step)), 'y after the fan-out').toBeLessThan(1)
    expect(enteredBox.y, 'the second node does not cover the first').toBeGreaterThanOrEqual(
      clickedBox.y + clickedBox.height - 0.5,
    )
  }
  await expect(canvas.nodes).toHaveCount(2)
})

test('handles connect nodes; a loop or a self-loop is refused with a visible reason', async ({ app }) => {
  const { canvas } = app
  // Whole nodes inside the canvas: a drag that leaves it makes React Flow pan the view.
  const a = await canvas.dragFromPalette('template', await canvas.pointAt(0.22, 0.15))
  const b = await canvas.dragFromPalette('llm', await canvas.pointAt(0.5, 0.4))
  const c = await canvas.dragFromPalette('template', await canvas.pointAt(0.72, 0.62))

  await canvas.connect(a, b)
  await expect(canvas.edge(a, b)).toHaveCount(1)
  await canvas.connect(b, c)
  await expect(canvas.edge(b, c)).toHaveCount(1)
  await expect(canvas.edges).toHaveCount(2)

  // c -> a would close the loop a -> b -> c -> a.
  await canvas.connect(c, a)
  await expect(canvas.notes).toContainText('would create a loop')
  await expect(canvas.edges).toHaveCount(2)
  await expect(canvas.edge(c, a)).toHaveCount(0)

  await canvas.connect(b, b)
  await expect(canvas.notes).toContainText('cannot feed itself')
  await expect(canvas.edges).toHaveCount(2)
})

test('undo and redo work from the toolbar and the keyboard', async ({ app, page }) => {
  const { canvas } = app
  await expect(app.undoButton).toBeDisabled()
  await canvas.addByClick('input')
  await canvas.addByClick('output')
  await expect(canvas.nodes).toHaveCount(2)

  await app.undoButton.click()
  await expect(canvas.nodes).toHaveCount(1)
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+Z')
  await expect(canvas.nodes).toHaveCount(0)
  await expect(app.undoButton).toBeDisabled()

  await app.redoButton.click()
  await expect(canvas.nodes).toHaveCount(1)
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+Shift+Z')
  await expect(canvas.nodes).toHaveCount(2)
  await expect(app.redoButton).toBeDisabled()

  await page.keyboard.press('ControlOrMeta+Z')
  await expect(canvas.nodes).toHaveCount(1)
  await page.keyboard.press('Control+Y')
  await expect(canvas.nodes).toHaveCount(2)
})

test('an inspector edit shows on the node and one typing burst undoes in one step', async ({ app, page }) => {
  const { canvas, inspector } = app
  const id = await canvas.addByClick('template')
  await canvas.select(id)
  await inspector.shows(id)
  const text = inspector.field('Template')
  await expect(text).toHaveValue('')
  await inspector.typeInto(text, 'Summarise: {{input_1.question}}')
  await expect(text).toHaveValue('Summarise: {{input_1.question}}')
  await expect(canvas.node(id)).toContainText('Summarise: {{input_1.question}}')

  await page.keyboard.press('ControlOrMeta+Z')
  await expect(text).toHaveValue('')
  await expect(canvas.node(id)).not.toContainText('Summarise')
  await expect(canvas.nodes).toHaveCount(1)

  await app.redoButton.click()
  await expect(text).toHaveValue('Summarise: {{input_1.question}}')
})

test('Delete removes the selected node and its connections', async ({ app, page }) => {
  const { canvas } = app
  const a = await canvas.dragFromPalette('input', await canvas.pointAt(0.2, 0.2))
  const b = await canvas.dragFromPalette('output', await canvas.pointAt(0.7, 0.6))
  await canvas.connect(a, b)
  await expect(canvas.edges).toHaveCount(1)

  await canvas.select(b)
  await page.keyboard.press('Delete')
  await expect(canvas.node(b)).toHaveCount(0)
  await expect(canvas.edges).toHaveCount(0)
  await expect(canvas.node(a)).toHaveCount(1)
})

test('copy in one flow and paste into another brings fresh nodes with their connection', async ({
  app,
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const { canvas, flows } = app
  const a = await canvas.dragFromPalette('input', await canvas.pointAt(0.2, 0.2))
  const b = await canvas.dragFromPalette('template', await canvas.pointAt(0.65, 0.55))
  await canvas.connect(a, b)
  await expect(canvas.edges).toHaveCount(1)
  await canvas.selectAll()
  await page.keyboard.press('ControlOrMeta+C')
  await expect(canvas.notes).toContainText('Copied 2 nodes')

  await flows.create()
  await expect(canvas.nodes).toHaveCount(0)
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(canvas.nodes).toHaveCount(2)
  await expect(canvas.edges).toHaveCount(1)
  await expect(canvas.nodesOfType('input')).toHaveCount(1)
  await expect(canvas.nodesOfType('template')).toHaveCount(1)

  // Pasting again in the same flow gives new ids: nothing collides, both edges stay internal.
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(canvas.nodes).toHaveCount(4)
  await expect(canvas.edges).toHaveCount(2)
  const ids = await canvas.nodeIds()
  expect(new Set(ids).size).toBe(4)

  // The first flow is unchanged.
  const names = await flows.names()
  expect(names).toHaveLength(2)
})

test('a reload keeps nodes, connections, config values and the viewport', async ({ app }) => {
  const { canvas, inspector } = app
  const a = await canvas.dragFromPalette('input', await canvas.pointAt(0.2, 0.25))
  const b = await canvas.dragFromPalette('template', await canvas.pointAt(0.6, 0.6))
  await canvas.connect(a, b)
  await canvas.select(b)
  await inspector.typeInto(inspector.field('Template'), 'Kept: {{input_1.question}}')
  await canvas.select(a)
  await inspector.recordValue('Values', 1).fill('what survives a reload?')

  // Zoom out a little and pan (nodes stay clear of the minimap), then let autosave write.
  await canvas.wheel(await canvas.pointAt(0.1, 0.1), 100)
  await canvas.pan(await canvas.pointAt(0.9, 0.1), 40, 30)
  const viewport = await canvas.viewport()
  expect(viewport.zoom).toBeLessThan(1)
  const before = await canvas.nodeIds()
  await app.saved()

  await app.reload()
  await expect(canvas.nodes).toHaveCount(2)
  expect(await canvas.nodeIds()).toEqual(before)
  await expect(canvas.edge(a, b)).toHaveCount(1)
  const after = await canvas.viewport()
  expect(after.zoom).toBeCloseTo(viewport.zoom, 2)
  expect(Math.abs(after.x - viewport.x)).toBeLessThan(2)
  expect(Math.abs(after.y - viewport.y)).toBeLessThan(2)
  await canvas.select(b)
  await expect(inspector.field('Template')).toHaveValue('Kept: {{input_1.question}}')
  await canvas.select(a)
  await expect(inspector.recordValue('Values', 1)).toHaveValue('what survives a reload?')
})

test('switching to zh-CN changes the text, survives a reload, and switches back', async ({ app, page }) => {
  const run = page.getByTestId('run-flow')
  const paletteTitle = page.getByRole('heading', { level: 2 }).first()
  await expect(run).toHaveText('Run')
  const englishTitle = await paletteTitle.textContent()

  await app.setLanguage('zh-CN')
  await expect(run).not.toHaveText('Run')
  await expect(run).toHaveText(/\p{Script=Han}/u)
  await expect(paletteTitle).not.toHaveText(englishTitle ?? '')
  await expect(app.languageSelect).toHaveValue('zh-CN')

  await app.reload()
  await expect(app.languageSelect).toHaveValue('zh-CN')
  await expect(run).toHaveText(/\p{Script=Han}/u)
  // Contract ids do not change with the language.
  await expect(app.canvas.paletteItem('llm')).toBeVisible()

  await app.setLanguage('en')
  await expect(run).toHaveText('Run')
  await expect(paletteTitle).toHaveText(englishTitle ?? '')
  await app.reload()
  await expect(app.languageSelect).toHaveValue('en')
})

test('the flow list creates, renames, duplicates, searches and deletes with a confirmation', async ({
  app,
}) => {
  const { flows, canvas } = app
  await expect(flows.items).toHaveCount(1)
  const first = (await flows.names())[0] ?? ''
  await canvas.addByClick('llm')

  await flows.rename(first, 'Support triage')
  await expect(app.page.getByRole('textbox', { name: 'Flow name' })).toHaveValue('Support triage')

  await flows.create()
  await expect(canvas.nodes).toHaveCount(0)
  const second = (await flows.current().locator('.wf-flow-item__name').textContent()) ?? ''
  await flows.rename(second, 'Weekly report')

  await flows.duplicate('Support triage')
  await expect(flows.items).toHaveCount(3)
  await expect(flows.item('Support triage (copy)')).toHaveCount(1)

  await flows.search.fill('weekly')
  await expect(flows.items).toHaveCount(1)
  await expect(flows.items.first()).toContainText('Weekly report')
  await flows.search.fill('triage')
  await expect(flows.items).toHaveCount(2)
  await flows.search.fill('')
  await expect(flows.items).toHaveCount(3)

  // Cancel keeps the flow; confirming deletes it.
  let dialog = await flows.askDelete('Support triage (copy)')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(flows.items).toHaveCount(3)
  dialog = await flows.askDelete('Support triage (copy)')
  await dialog.getByRole('button', { name: 'Delete flow' }).click()
  await expect(flows.items).toHaveCount(2)
  await expect(flows.item('Support triage (copy)')).toHaveCount(0)

  // Opening a flow shows its own nodes.
  await flows.open('Support triage')
  await expect(canvas.nodes).toHaveCount(1)
  await expect(canvas.nodesOfType('llm')).toHaveCount(1)
})

function contains(box: { x: number; y: number; width: number; height: number }, p: Point): boolean {
  return p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height
}
