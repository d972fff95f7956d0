/**
 * Node consoles and the nodes a person placed by hand: a console opening under its node never
 * covers the node below. With little room it shrinks to the room; with too little for a readable
 * box it stays docked (a button on the node that shows it in the inspector).
 */
import type { Locator, Page } from '@playwright/test'
import type { WardflowApp } from './pages/WardflowApp.ts'
import { expect, test } from './support/fixtures.ts'

interface Rect {
  x: number
  y: number
  width: number
  height: number
}

async function rectOf(locator: Locator): Promise<Rect> {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not visible')
  return box
}

/** Every node's rectangle and its console's (when it has one in the node), from the page. */
function nodeRects(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="flow-node"]')].map((node) => {
      const r = node.getBoundingClientRect()
      const c = node.querySelector('[data-testid="node-console"]')?.getBoundingClientRect()
      return {
        id: node.dataset['nodeId'] ?? '',
        node: { x: r.x, y: r.y, width: r.width, height: r.height },
        console: c && c.height > 0 ? { x: c.x, y: c.y, width: c.width, height: c.height } : null,
      }
    }),
  )
}

const meets = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** "a's console covers b" for every console that meets another node's rectangle. */
async function coverings(page: Page): Promise<string[]> {
  const rects = await nodeRects(page)
  return rects.flatMap((owner) =>
    rects
      .filter((other) => other.id !== owner.id && owner.console && meets(owner.console, other.node))
      .map((other) => `${owner.id}'s console covers ${other.id}`),
  )
}

/** Moves `id` by mouse so its top edge is `offset` px below `above`'s top, at the same left. */
async function placeBelow(app: WardflowApp, id: string, above: string, offset: number): Promise<void> {
  const a = await rectOf(app.canvas.node(above))
  const b = await rectOf(app.canvas.node(id))
  await app.canvas.moveNode(id, a.x - b.x, a.y + offset - b.y)
}

test('a console under a hand-placed node never covers the node just below it', async ({ app, page }) => {
  const { canvas, inspector, run } = app
  await app.open()
  const upper = await canvas.dragFromPalette('llm', await canvas.pointAt(0.3, 0.15))
  const lower = await canvas.dragFromPalette('llm', await canvas.pointAt(0.6, 0.6))
  for (const id of [upper, lower]) {
    await canvas.select(id)
    await inspector
      .field('Prompt')
      .fill('Explain in a few sentences how rivers carve their valleys over time.')
  }
  await canvas.clickEmpty()
  // 40 px under the upper node, as a person tidies a flow by hand (the grid snaps it a little).
  const body = (await rectOf(canvas.node(upper))).height
  await placeBelow(app, lower, upper, body + 40)
  const offset = async () => (await rectOf(canvas.node(lower))).y - (await rectOf(canvas.node(upper))).y
  const gap = (await offset()) - body
  expect(gap, 'the gap under the upper node').toBeGreaterThan(16)
  expect(gap, 'the gap under the upper node').toBeLessThan(64)

  await run.start()
  await run.finished()
  await expect(run.console(lower)).toContainText('[Demo provider]')
  expect(await coverings(page)).toEqual([])
  // No room for a readable box: the upper console waits on its node, and opens in the inspector.
  const docked = canvas.node(upper).getByTestId('node-console-docked')
  await expect(docked).toBeVisible()
  await docked.click()
  await expect(canvas.node(upper)).toHaveAttribute('data-selected', 'true')
  await expect(page.getByTestId('node-run-details').getByTestId('inspector-console')).toContainText(
    '[Demo provider]',
  )

  // The lower node moved further down by hand: the upper console opens in the room it has now,
  // and still covers nothing.
  await canvas.clickEmpty()
  await placeBelow(app, lower, upper, body + 130)
  await expect(canvas.console(upper)).toBeVisible()
  await expect(canvas.console(upper)).toContainText('[Demo provider]')
  expect(await coverings(page)).toEqual([])
  // It took the room there is (shorter than its full box), not a sliver of it.
  const left = (await rectOf(canvas.node(lower))).y - (await rectOf(canvas.node(upper))).y
  const upperNow = await rectOf(canvas.node(upper))
  expect(left - upperNow.height, 'room left under the upper console').toBeLessThan(24)
  // Moved back up, the console docks again rather than covering it.
  await placeBelow(app, lower, upper, body + 20)
  await expect(docked).toBeVisible()
  expect(await coverings(page)).toEqual([])
})
