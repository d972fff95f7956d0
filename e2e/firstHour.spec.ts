/**
 * A newcomer's first moves: the first drop lands on the welcome card of an empty canvas; an
 * error banner belongs to the flow that caused it; a workflow file's text pasted on the canvas
 * is imported (or refused with its problems), and other pasted text says why nothing came.
 */
import type { Page } from '@playwright/test'
import { jsonFile } from './support/files.ts'
import { expect, test } from './support/fixtures.ts'

test.beforeEach(async ({ app }) => {
  await app.open()
})

/** Puts `text` on the system clipboard, as copying it from another program does. */
async function copyToClipboard(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text)
}

test('a node dropped on the welcome card of an empty canvas lands there', async ({ app }) => {
  const { canvas } = app
  const card = canvas.welcome.locator('.wf-welcome__card')
  await expect(card).toBeVisible()
  const centre = await canvas.centreOf(card)
  const id = await canvas.dragFromPalette('llm', centre)
  const box = await canvas.node(id).boundingBox()
  expect(box, 'the dropped node is visible').not.toBeNull()
  if (box) {
    const inside =
      centre.x >= box.x &&
      centre.x <= box.x + box.width &&
      centre.y >= box.y &&
      centre.y <= box.y + box.height
    expect(inside, `node ${JSON.stringify(box)} lies under the drop ${JSON.stringify(centre)}`).toBe(true)
  }
  await expect(canvas.welcome).toBeHidden()
})

test("a flow's error banner stays with that flow; an app-wide one stays on", async ({ app }) => {
  const { canvas, inspector, flows, run } = app
  // A Code node with no code: Run is refused with a banner about this flow.
  const id = await canvas.addByClick('code')
  await inspector.shows(id)
  await inspector.typeInEditor(inspector.fieldBox('Code'), '')
  await run.start()
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toContainText('Write the code to run.')

  await flows.create()
  await expect(canvas.nodes).toHaveCount(0)
  await expect(app.errorBanner).toBeHidden()

  // A refused file is about the file, not a flow: it stays when another flow opens.
  await app.importWorkflow(jsonFile('broken.wardflow.json', '{ "format": "wardflow.workflow", "nodes": [ {'))
  await expect(app.errorBanner).toBeVisible()
  await flows.create()
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toContainText('broken.wardflow.json')
})

test('a workflow file pasted on the canvas opens as a new flow; a broken one says why', async ({
  app,
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const { canvas, flows } = app
  const a = await canvas.dragFromPalette('input', await canvas.pointAt(0.25, 0.3))
  const b = await canvas.dragFromPalette('template', await canvas.pointAt(0.65, 0.5))
  await canvas.connect(a, b)
  await expect(canvas.edges).toHaveCount(1)
  const file = await app.exportWorkflow()
  const names = await flows.names()

  await flows.create()
  await expect(canvas.nodes).toHaveCount(0)
  await copyToClipboard(page, file.text)
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  // The file holds the id of the flow it came from, which is saved: import it as a copy.
  const conflict = page.getByRole('dialog', { name: 'This flow is already saved' })
  await conflict.getByRole('button', { name: 'Import as copy' }).click()
  await expect(flows.items).toHaveCount(names.length + 2)
  await expect(canvas.nodes).toHaveCount(2)
  await expect(canvas.edges).toHaveCount(1)
  await expect(canvas.notes).toContainText('Imported')

  // Valid JSON, but not a valid workflow: the banner lists the problem with its path.
  const broken = JSON.parse(file.text) as { nodes: Array<Record<string, unknown>> }
  const first = broken.nodes[0]
  if (!first) throw new Error('the exported flow has nodes')
  first['position'] = 'somewhere'
  const count = await flows.items.count()
  await copyToClipboard(page, JSON.stringify(broken))
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(app.errorBanner).toBeVisible()
  await expect(app.errorBanner).toContainText('The pasted text was not imported')
  await expect(app.errorBanner).toContainText('nodes[0].position')
  await expect(flows.items).toHaveCount(count)

  // Plain words: nothing to paste, and a note says so.
  await copyToClipboard(page, 'just some words')
  await canvas.clickEmpty()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(canvas.notes).toContainText('Nothing pasted')
  await expect(canvas.nodes).toHaveCount(2)
})
