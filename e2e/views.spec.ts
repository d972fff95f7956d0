/**
 * Views at 1280x720, as a newcomer's laptop shows them: auto-layout of a big flow stays readable,
 * an imported flow is fitted into view, and a run leaves the canvas its room (side panels hide,
 * the run panel resizes by drag and by keyboard, both remembered).
 */
import type { Locator } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { jsonFile } from './support/files.ts'

test.use({ viewport: { width: 1280, height: 720 } })

/** Smallest zoom at which a node title is still readable (the app's fit never goes below it). */
const READABLE_ZOOM = 0.7
/** A readable title line on screen, in CSS pixels. */
const READABLE_TITLE_PX = 9

interface Spec {
  id: string
  x: number
  y: number
}

/** A workflow file: a chain Input -> Template x (n-2) -> Output, placed where `place` says. */
function chainFile(
  n: number,
  place: (i: number) => { x: number; y: number },
  viewport = { x: 0, y: 0, zoom: 1 },
) {
  const specs: Spec[] = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, ...place(i) }))
  const nodes = specs.map((s, i) => {
    const type = i === 0 ? 'input' : i === n - 1 ? 'output' : 'template'
    const config =
      type === 'input'
        ? { configVersion: 1, values: { topic: 'views' } }
        : type === 'template'
          ? { configVersion: 1, template: `step ${i}: {{n${i - 1}.${i === 1 ? 'topic' : 'text'}}}` }
          : { configVersion: 1, values: { result: `{{n${n - 2}.text}}` } }
    return { id: s.id, type, position: { x: s.x, y: s.y }, data: { label: `Step ${i}`, config } }
  })
  const edges = specs.slice(1).map((s, i) => ({ id: `e${i}`, source: `n${i}`, target: s.id }))
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: `views-${n}`,
      name: `Chain of ${n}`,
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
    },
    viewport,
    nodes,
    edges,
  }
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not on screen')
  return box
}

function inside(
  inner: { x: number; y: number; width: number; height: number },
  outer: typeof inner,
): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  )
}

test('auto-layout of a big flow keeps titles readable and shows the flow from its start', async ({
  app,
  page,
}) => {
  await app.open()
  // 40 nodes piled up: auto-layout spreads them into a row far wider than the screen.
  await app.importWorkflow(
    jsonFile(
      'chain-40.wardflow.json',
      chainFile(40, (i) => ({ x: (i % 5) * 30, y: (i % 7) * 20 })),
    ),
  )
  await expect(app.canvas.nodes).toHaveCount(40)
  await page.getByTestId('auto-layout').click()
  await expect(async () => {
    const view = await app.canvas.viewport()
    expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM - 0.001)
    // The start of the flow is on screen, and its title is readable.
    const title = app.canvas.node('n0').locator('.wf-node__title')
    const box = await boxOf(title)
    expect(box.height).toBeGreaterThanOrEqual(READABLE_TITLE_PX)
    expect(inside(await boxOf(app.canvas.node('n0')), await app.canvas.box())).toBe(true)
  }).toPass({ timeout: 5_000 })
})

test('an imported flow is fitted into view, whatever viewport its file had', async ({ app }) => {
  await app.open()
  // Made on another screen: the file's viewport looks far away from its nodes (a 2 x 2 block,
  // which fits the canvas at a readable zoom).
  const file = chainFile(4, (i) => ({ x: 3000 + (i % 2) * 300, y: 2000 + Math.floor(i / 2) * 150 }), {
    x: 900,
    y: -800,
    zoom: 1.4,
  })
  await app.importWorkflow(jsonFile('far.wardflow.json', file))
  await expect(app.canvas.nodes).toHaveCount(4)
  await expect(async () => {
    const canvas = await app.canvas.box()
    for (let i = 0; i < 4; i += 1) expect(inside(await boxOf(app.canvas.node(`n${i}`)), canvas)).toBe(true)
  }).toPass({ timeout: 5_000 })
  // Reopened after a reload, it shows the same view (it has one of its own now).
  const fitted = await app.canvas.viewport()
  await app.saved()
  await app.reload()
  await expect(app.canvas.nodes).toHaveCount(4)
  const reopened = await app.canvas.viewport()
  expect(reopened.zoom).toBeCloseTo(fitted.zoom, 2)
  expect(Math.abs(reopened.x - fitted.x)).toBeLessThan(2)
})

test('an imported flow drawn only where in view (over 200 nodes) is fitted from its start too', async ({
  app,
}) => {
  await app.open()
  // 300 nodes in rows of 25, far wider than the canvas; the file's viewport looks at nothing.
  const file = chainFile(300, (i) => ({ x: 600 + (i % 25) * 280, y: 400 + Math.floor(i / 25) * 160 }), {
    x: -5000,
    y: -5000,
    zoom: 1.5,
  })
  await app.importWorkflow(jsonFile('wide.wardflow.json', file))
  await expect(app.canvas.node('n0')).toBeVisible({ timeout: 15_000 })
  // Shown from its start at the smallest readable zoom, as a smaller flow too big to fit is (the
  // fit ran before the canvas of the new flow had mounted, which then put back its default view).
  await expect(async () => {
    expect((await app.canvas.viewport()).zoom).toBeCloseTo(READABLE_ZOOM, 2)
    expect(inside(await boxOf(app.canvas.node('n0')), await app.canvas.box())).toBe(true)
  }).toPass({ timeout: 5_000 })
})

test('after a run the canvas keeps its room: panels hide and the run panel resizes, remembered', async ({
  app,
  page,
}) => {
  await app.open()
  await app.importWorkflow(
    jsonFile(
      'chain-4.wardflow.json',
      chainFile(4, (i) => ({ x: i * 320, y: 0 })),
    ),
  )
  await expect(app.canvas.nodes).toHaveCount(4)
  await app.run.start()
  await app.run.finished()
  const canvasHeight = async () => (await app.canvas.box()).height
  expect(await canvasHeight()).toBeGreaterThanOrEqual(240)

  // The run panel: keyboard on its splitter, then a drag.
  const splitter = page.getByTestId('run-panel-splitter')
  const panel = page.getByTestId('run-panel')
  const before = (await boxOf(panel)).height
  await splitter.focus()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect.poll(async () => (await boxOf(panel)).height).toBeLessThan(before - 30)
  const grip = await boxOf(splitter)
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2)
  await page.mouse.down()
  await page.mouse.move(grip.x + grip.width / 2, grip.y - 120, { steps: 6 })
  await page.mouse.up()
  const dragged = (await boxOf(panel)).height
  expect(dragged).toBeGreaterThan(before + 40)
  // However tall the panel is, the canvas keeps its minimum.
  for (let i = 0; i < 30; i += 1) await splitter.press('ArrowUp')
  expect(await canvasHeight()).toBeGreaterThanOrEqual(240)

  // Side panels hide with their toolbar buttons: the canvas takes their width.
  const width = (await app.canvas.box()).width
  await page.getByTestId('toggle-left-panel').click()
  await page.getByTestId('toggle-right-panel').click()
  await expect(page.getByTestId('node-inspector')).toHaveCount(0)
  await expect.poll(async () => (await app.canvas.box()).width).toBeGreaterThan(width + 400)

  // Remembered across a reload.
  const kept = (await boxOf(panel)).height
  // (Not app.reload(): it waits for the flow list, which is hidden now.)
  await page.reload()
  await expect(app.canvas.surface).toBeVisible()
  await expect(page.getByTestId('node-inspector')).toHaveCount(0)
  await expect(page.getByTestId('toggle-left-panel')).toHaveAttribute('aria-pressed', 'false')
  expect(Math.abs((await boxOf(panel)).height - kept)).toBeLessThan(2)
  await page.getByTestId('toggle-right-panel').click()
  await expect(page.getByTestId('node-inspector')).toBeVisible()
})

test('after a run with long console output, no console covers another node', async ({ app, page }) => {
  await app.open()
  // One input fanning out to three code nodes that print a lot, placed close together.
  const loud = 'for (let i = 0; i < 300; i += 1) console.log("line " + i + " of a long log")\nreturn 1'
  const nodes = [
    {
      id: 'in',
      type: 'input',
      position: { x: 0, y: 0 },
      data: { label: 'In', config: { configVersion: 1, values: {} } },
    },
    ...['a', 'b', 'c'].map((id, i) => ({
      id,
      type: 'code',
      position: { x: 340, y: i * 100 },
      data: { label: `Print ${id}`, config: { configVersion: 1, code: loud } },
    })),
  ]
  const edges = ['a', 'b', 'c'].map((id) => ({ id: `e_${id}`, source: 'in', target: id }))
  const file = {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: 'loud',
      name: 'Loud',
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
    },
    nodes,
    edges,
  }
  await app.importWorkflow(jsonFile('loud.wardflow.json', file))
  await expect(app.canvas.nodes).toHaveCount(4)
  await page.getByTestId('auto-layout').click()
  await app.run.start()
  await app.run.finished()
  for (const id of ['a', 'b', 'c']) await expect(app.canvas.console(id)).toContainText('line 299')
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="flow-node"]')].map((node) => {
      const r = node.getBoundingClientRect()
      const c = node.querySelector('[data-testid="node-console"]')?.getBoundingClientRect()
      return {
        id: node.dataset['nodeId'] ?? '',
        node: { x: r.x, y: r.y, width: r.width, height: r.height },
        console: c ? { x: c.x, y: c.y, width: c.width, height: c.height } : null,
      }
    }),
  )
  const meets = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  const covered = boxes.flatMap((owner) =>
    boxes
      .filter((other) => other.id !== owner.id && owner.console && meets(owner.console, other.node))
      .map((other) => `${owner.id}'s console covers ${other.id}`),
  )
  expect(boxes.filter((b) => b.console).length).toBeGreaterThanOrEqual(3)
  expect(covered).toEqual([])
})
