/**
 * The loop container: nodes dragged into it join its body, the loop runs its body once per
 * item, and a body node's run details step through the iterations.
 */
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
})
