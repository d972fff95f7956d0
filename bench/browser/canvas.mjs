// Canvas measures: opening an N-node flow (import action -> first painted frame with every
// visible node drawn), dragging a node (animation-frame deltas and main-thread time per frame),
// and autosave (long tasks from an edit until the save indicator says saved).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileInput, openApp, openBare } from './pages.mjs'
import { startCpuTrace, stopCpuTrace } from './trace.mjs'
import { denseWorkflow, gridWorkflow, workflowFile } from './flows.mjs'
import { absolutePositions } from './controlFlows.mjs'

let uniq = 0

/** The flow as a file on disk: Chromium reads it itself (no bytes decoded by a page script). */
function fileOnDisk(doc) {
  const { name, buffer } = workflowFile(doc)
  const path = join(mkdtempSync(join(tmpdir(), 'wardflow-bench-')), name)
  writeFileSync(path, buffer)
  return path
}

/**
 * Opens a fresh page of `kind`, imports an N-node flow (row chains, `edges` distinct
 * connections, or the document `make(count, id)` returns), returns the page, the open time and,
 * with `cpu`, the main thread's CPU time in the same window (a Chrome trace).
 */
export async function openFlow(browser, urls, kind, count, pane, { edges, make, cpu = false } = {}) {
  const opened = kind === 'app' ? await openApp(browser, urls.app) : await openBare(browser, urls.bare, pane)
  const id = `bench-${count}-${(uniq += 1)}`
  const doc =
    make !== undefined
      ? make(count, id)
      : edges === undefined
        ? gridWorkflow(count, id)
        : denseWorkflow(count, edges, id)
  // Where each node is on the canvas (a loop body's positions are relative to its loop).
  const positions = absolutePositions(doc)
  const path = fileOnDisk(doc)
  if (kind === 'app') {
    // A person reaches the file chooser through the Import button, whose pointerenter loads the
    // import area's code (it loads on first use); the measure is the flow's open, not that load.
    await opened.page.getByTestId('import-workflow').hover()
    await opened.page.waitForLoadState('networkidle')
  }
  await opened.page.evaluate((p) => window.__bench.watchOpen(p), positions)
  if (cpu) await startCpuTrace(opened.page)
  await fileInput(opened.page, kind).setInputFiles(path)
  const open = await opened.page.evaluate(() => window.__bench.open)
  rmSync(dirname(path), { recursive: true, force: true })
  if (Number.isNaN(open.end))
    throw new Error(`${kind}: nodes in view never drawn: ${open.missing.join(', ')}`)
  const cpuMs = cpu ? await stopCpuTrace(opened.page, open.start, open.end) : null
  return { ...opened, openMs: open.end - open.start, cpuMs, visible: open.visible }
}

async function cdpTaskSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits 1.5 s after a selection, and longer while what it opens is still downloading code (a
 * loop's inspector shows `until` in Monaco, ~4 MB): no new request for a whole second.
 */
async function settleAfterSelect(page, { quietMs = 1000, minMs = 1500, maxMs = 20_000 } = {}) {
  const requests = () => page.evaluate(() => performance.getEntriesByType('resource').length)
  const started = Date.now()
  let seen = await requests()
  let quietSince = Date.now()
  while (Date.now() - started < maxMs) {
    await sleep(250)
    const now = await requests()
    if (now !== seen) [seen, quietSince] = [now, Date.now()]
    if (Date.now() - started >= minMs && Date.now() - quietSince >= quietMs) return
  }
}

/**
 * Drags node `nodeId` (default n26, second row, second column of the grid: well inside the
 * canvas, so React Flow never auto-pans) along a loop with the real mouse: input events go through Chromium's input
 * pipeline every few milliseconds without waiting for the page, as a mouse reports faster than
 * the screen refreshes. The node is selected first and the page left to settle, so what is
 * measured is moving it, not what selecting it opens (the inspector). Returns the
 * animation-frame deltas while dragging and the main-thread busy time per frame.
 */
export async function dragNode(page, { moves = 300, everyMs = 8, nodeId = 'n26' } = {}) {
  const node = page.locator(`.react-flow__node[data-id="${nodeId}"]`)
  const grab = async () => {
    const box = await node.boundingBox()
    if (!box) throw new Error(`node ${nodeId} is not on screen`)
    return { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 16) }
  }
  const first = await grab()
  await page.mouse.click(first.x, first.y)
  await settleAfterSelect(page)
  const { x: x0, y: y0 } = await grab()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  await page.mouse.move(x0, y0)
  await page.mouse.down()
  await page.evaluate(() => window.__bench.startFrames())
  const busyBefore = await cdpTaskSeconds(cdp)
  const started = Date.now()
  const sent = []
  for (let i = 1; i <= moves; i += 1) {
    const a = (i / moves) * 2 * Math.PI
    const [x, y] = [x0 + 120 * Math.sin(a), y0 + 80 * (1 - Math.cos(a))]
    sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 }))
    await sleep(everyMs)
  }
  await Promise.all(sent)
  const wallMs = Date.now() - started
  const busyAfter = await cdpTaskSeconds(cdp)
  const deltas = await page.evaluate(() => window.__bench.stopFrames())
  await page.mouse.up()
  await cdp.detach()
  return {
    frames: deltas,
    meanFrameMs: wallMs / Math.max(1, deltas.length),
    busyPerFrameMs: ((busyAfter - busyBefore) * 1000) / Math.max(1, deltas.length),
  }
}

/**
 * An edit in a 500-node flow (a short drag of one node), then waits for the save indicator to
 * say "saved". Returns the longest main-thread task in that window and how long saving took.
 */
export async function autosave(page) {
  // Nothing waiting to be saved (after an import the indicator is idle, after an edit saved).
  await page
    .locator('[data-testid="save-status"]:not([data-status="saving"])')
    .waitFor({ state: 'attached', timeout: 30_000 })
  const node = page.locator('.react-flow__node[data-id="n25"]')
  const box = await node.boundingBox()
  if (!box) throw new Error('node n25 is not on screen')
  const x = box.x + box.width / 2
  const y = box.y + Math.min(box.height / 2, 16)
  // Selected first (the inspector opens and settles): the window measured is the edit and its save.
  await page.mouse.click(x, y)
  await page.waitForTimeout(1500)
  // Resolves when the indicator went to "saving" and then back to "saved" (painted).
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="save-status"]')
    window.__bench.saved = new Promise((resolve) => {
      let saving = false
      const observer = new MutationObserver(() => {
        if (el.dataset.status === 'saving') saving = true
        if (saving && el.dataset.status === 'saved') {
          observer.disconnect()
          void window.__bench.afterPaint().then(resolve)
        }
      })
      observer.observe(el, { attributes: true, attributeFilter: ['data-status'] })
    })
  })
  const from = await page.evaluate(() => performance.now())
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + 20, y + 40, { steps: 4 })
  await page.mouse.up()
  const to = await page.evaluate(() => window.__bench.saved)
  const tasks = await page.evaluate(([a, b]) => window.__bench.longtasksBetween(a, b), [from, to])
  return { maxTaskMs: Math.max(0, ...tasks.map((t) => t.duration)), tasks: tasks.length, windowMs: to - from }
}
