/**
 * The loop container: nodes dragged into it join its body, the loop runs its body once per
 * item, and the loop's and a body node's run details step through the iterations (and the body's
 * consoles follow). A loop dragged into another nests; the "Summarise a list" template runs.
 */
import { IterationPicker } from './pages/IterationPicker.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('drag two nodes into a loop, run it over three items, browse the iterations', async ({ app, page }) => {
  const { canvas, inspector } = app
  const origin = await canvas.box()
  const loopId = await canvas.dragFromPalette('loop', { x: origin.x + 330, y: origin.y + 170 })
  const first = await canvas.dragFromPalette('template', { x: origin.x + 150, y: origin.y + 460 })
  const second = await canvas.dragFromPalette('template', { x: origin.x + 480, y: origin.y + 460 })

  // Into the loop's box, by their headers, as a person drags them.
  const box = await canvas.node(loopId).boundingBox()
  if (!box) throw new Error('the loop is not visible')
  for (const [id, fx] of [
    [first, 0.08],
    [second, 0.55],
  ] as const) {
    const grab = await canvas.grabPoint(id)
    await canvas.moveNode(id, box.x + box.width * fx - grab.x, box.y + box.height * 0.45 - grab.y)
  }
  // Both now sit inside the loop's box (which grew to hold them).
  const grown = await canvas.node(loopId).boundingBox()
  for (const id of [first, second]) {
    const inner = await canvas.node(id).boundingBox()
    expect(grown && inner && inner.x >= grown.x && inner.x + inner.width <= grown.x + grown.width + 1).toBe(
      true,
    )
    expect(grown && inner && inner.y >= grown.y && inner.y + inner.height <= grown.y + grown.height + 1).toBe(
      true,
    )
  }
  await canvas.connect(first, second)

  await canvas.select(loopId)
  await inspector.shows(loopId)
  await inspector.typeInto(inspector.field('Items'), '["apple", "pear", "fig"]')
  await canvas.select(first)
  await inspector.typeInto(inspector.field('Template'), `{{${loopId}.item}}`)
  await canvas.select(second)
  await inspector.typeInto(inspector.field('Template'), `#{{${loopId}.index}} {{${first}.text}}`)

  await app.run.start()
  await app.run.finished()
  await app.run.expectStatus(loopId, 'success')

  await canvas.select(second)
  const iterations = page.getByTestId('loop-iterations')
  await expect(iterations).toHaveAttribute('data-count', '3')
  const current = page.getByTestId('loop-iteration')
  await expect(current).toHaveAttribute('data-iteration', '2')
  await expect(page.getByTestId('loop-iteration-output')).toContainText('#2 fig')
  await page.getByTestId('loop-iteration-prev').click()
  await expect(current).toHaveAttribute('data-iteration', '1')
  await expect(page.getByTestId('loop-iteration-output')).toContainText('#1 pear')
  await expect(page.getByTestId('loop-iteration-inputs')).toContainText('pear')
  await page.getByTestId('loop-iteration-prev').click()
  await expect(page.getByTestId('loop-iteration-output')).toContainText('#0 apple')
  await expect(page.getByTestId('loop-iteration-prev')).toBeDisabled()

  // The loop's own picker shows the same pick (iteration 1, chosen above): each body node's
  // result in it. Driven with the keyboard. (Template nodes print nothing; the consoles that
  // follow the pick are checked with the LLM of the "Summarise a list" test below.)
  await canvas.select(loopId)
  await inspector.shows(loopId)
  const picker = new IterationPicker(page)
  await picker.shows(1, 3)
  await expect(picker.bodyNode(second).getByTestId('loop-iteration-output')).toContainText('#0 apple')
  await picker.next.focus()
  await page.keyboard.press('Enter')
  await picker.shows(2, 3)
  await expect(picker.bodyNode(first).getByTestId('loop-iteration-output')).toContainText('pear')
  await expect(picker.bodyNode(second).getByTestId('loop-iteration-output')).toContainText('#1 pear')
  await page.keyboard.press('ArrowRight')
  await picker.shows(3, 3)
  await expect(picker.next).toBeDisabled()
  await page.keyboard.press('Home')
  await picker.shows(1, 3)
  await expect(picker.prev).toBeDisabled()
})

test('a loop dragged into another nests: it moves with the outer one, which grew; dragged out it leaves', async ({
  app,
}) => {
  const { canvas } = app
  const origin = await canvas.box()
  const outer = await canvas.dragFromPalette('loop', { x: origin.x + 300, y: origin.y + 150 })
  const inner = await canvas.dragFromPalette('loop', { x: origin.x + 300, y: origin.y + 470 })
  const before = await canvas.node(outer).boundingBox()
  if (!before) throw new Error('the outer loop is not visible')
  // Drag the inner loop by its header so its centre lands inside the outer loop's box.
  const grab = await canvas.grabPoint(inner)
  await canvas.moveNode(inner, before.x + 40 - grab.x + 14, before.y + 50 - grab.y + 14)
  const grown = await canvas.node(outer).boundingBox()
  const nested = await canvas.node(inner).boundingBox()
  if (!grown || !nested) throw new Error('the loops are not visible')
  expect(nested.x).toBeGreaterThanOrEqual(grown.x)
  expect(nested.y).toBeGreaterThanOrEqual(grown.y)
  expect(nested.x + nested.width).toBeLessThanOrEqual(grown.x + grown.width + 1)
  expect(nested.y + nested.height).toBeLessThanOrEqual(grown.y + grown.height + 1)
  expect(grown.width * grown.height).toBeGreaterThan(before.width * before.height)

  // Moving the outer loop carries the inner one along.
  await canvas.moveNode(outer, 120, 60)
  const moved = await canvas.node(outer).boundingBox()
  const carried = await canvas.node(inner).boundingBox()
  if (!moved || !carried) throw new Error('the loops are not visible')
  expect(Math.round(carried.x - moved.x)).toBe(Math.round(nested.x - grown.x))
  expect(Math.round(carried.y - moved.y)).toBe(Math.round(nested.y - grown.y))

  // Dragged out below it, the inner loop is on the canvas again: moving the outer leaves it.
  await canvas.moveNode(inner, 0, moved.height + 80)
  await canvas.fitView()
  const out = await canvas.node(inner).boundingBox()
  const outerThen = await canvas.node(outer).boundingBox()
  await canvas.moveNode(outer, 40, 0)
  const after = await canvas.node(inner).boundingBox()
  const outerNow = await canvas.node(outer).boundingBox()
  if (!out || !outerThen || !after || !outerNow) throw new Error('the loops are not visible')
  expect(outerNow.x - outerThen.x).toBeGreaterThan(20)
  expect(Math.abs(after.x - out.x)).toBeLessThan(1)
  expect(Math.abs(after.y - out.y)).toBeLessThan(1)
})

test('the "Summarise a list" template opens from the gallery and runs offline, one summary per item', async ({
  app,
  page,
}) => {
  const { templates, run, canvas, inspector } = app
  await templates.open()
  await templates.openTemplate('summarise-list')
  await run.start()
  await run.finished(45_000)
  for (const id of ['reviews', 'each', 'summary', 'join', 'digest']) await run.expectStatus(id, 'success')
  await expect(run.result).toContainText('2. Basalt kettle: boils fast')

  await canvas.select('each')
  await inspector.shows('each')
  const picker = new IterationPicker(page)
  await picker.shows(3, 3)
  await expect(picker.bodyNode('summary').getByTestId('loop-iteration-output')).toContainText(
    'Cedar desk lamp',
  )
  await picker.prev.click()
  await picker.shows(2, 3)
  await expect(picker.bodyNode('summary').getByTestId('loop-iteration-output')).toContainText('Basalt kettle')
  await expect(canvas.console('summary')).toContainText('Basalt kettle')
  await expect(canvas.console('summary')).not.toContainText('Cedar')
})
