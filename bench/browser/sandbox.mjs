// The browser sandbox, measured two ways in the same run:
// 1. the app's real worker runner on a page of its own (bench/browser/sandboxPage.ts): a new
//    runner's first run (worker, wasm, QuickJS, the run) and the following calls; the targets
//    apply here, as they are the sandbox's own figures;
// 2. through the app's own runs of a one-node flow (a Code node,
// `return 1 + 1`) with the real worker runner (QuickJS/wasm in a Web Worker). Times come from
// the run record the app saves in IndexedDB (engine timestamps):
// - cold start: a fresh page's first run, from the run's start (the runner is created and starts
//   loading the worker and the wasm just before) to the Code node's result;
// - warm call: the next runs in the same page, the Code node's own duration;
// - for information, warm calls after ~25 runs: V8 first runs the QuickJS wasm with its baseline
//   compiler and tiers hot functions up in the background, so early calls are slower.
import { fileInput, newPage, openApp } from './pages.mjs'
import { median } from './probes.mjs'

const COLD_MAX_MS = 300
const WARM_MAX_MS = 10
const WARM_RUNS = 5
const TIERED_AFTER_RUNS = 25
const TIERED_RUNS = 5

function codeWorkflow() {
  const stamp = '2026-11-29T00:00:00.000Z'
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: 'bench-code',
      name: 'Bench code',
      description: '',
      tags: [],
      createdAt: stamp,
      updatedAt: stamp,
    },
    viewport: { x: 40, y: 40, zoom: 1 },
    nodes: [
      {
        id: 'calc',
        type: 'code',
        position: { x: 0, y: 0 },
        data: { label: 'Calc', config: { configVersion: 1, code: 'return 1 + 1\n' } },
      },
    ],
    edges: [],
  }
}

/** The newest run record in the app's database. */
function lastRunRecord(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('wardflow')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const request = db.transaction('runs').objectStore('runs').getAll()
          request.onsuccess = () => {
            db.close()
            resolve(request.result.sort((a, b) => a.startedAt - b.startedAt).at(-1) ?? null)
          }
          request.onerror = () => reject(request.error)
        }
      }),
  )
}

async function runOnce(page) {
  const before = await lastRunRecord(page)
  const clicked = await page.evaluate(() => performance.now())
  await page.getByTestId('run-flow').click()
  await page.locator('[data-testid="flow-node"][data-node-id="calc"][data-status="success"]').waitFor()
  const shown = await page.evaluate(() => window.__bench.afterPaint())
  await page.getByTestId('run-flow').and(page.locator(':enabled')).waitFor()
  let record = await lastRunRecord(page)
  for (let i = 0; record?.id === before?.id && i < 50; i += 1) {
    await page.waitForTimeout(100)
    record = await lastRunRecord(page)
  }
  const timing = record?.timings?.calc
  if (!record || record.id === before?.id || !timing || record.status !== 'success')
    throw new Error(`the Code node run was not recorded: ${JSON.stringify(record)}`)
  return {
    fromRunStartMs: timing.startedAt + timing.durationMs - record.startedAt,
    nodeMs: timing.durationMs,
    clickToPaintMs: shown - clicked,
  }
}

const PAGE_WARM_CALLS = 20

/** Cold start and warm calls of the worker runner alone, each rep on a fresh page. */
async function runnerAlone(browser, urls, reps) {
  const cold = []
  const warm = []
  const late = []
  for (let rep = 0; rep < reps; rep += 1) {
    const { context, page } = await newPage(browser)
    try {
      await page.goto(`${urls.bare}sandbox.html`)
      await page.waitForFunction(() => window.__sandbox !== undefined)
      cold.push(await page.evaluate(() => window.__sandbox.cold()))
      warm.push(...(await page.evaluate((n) => window.__sandbox.warm(n), PAGE_WARM_CALLS)))
      if (rep === reps - 1) {
        await page.evaluate((n) => window.__sandbox.warm(n), TIERED_AFTER_RUNS)
        late.push(...(await page.evaluate((n) => window.__sandbox.warm(n), TIERED_RUNS)))
      }
    } finally {
      await context.close()
    }
  }
  return { cold, warm, late }
}

export async function measureSandbox(browser, urls, reps) {
  const alone = await runnerAlone(browser, urls, reps)
  const cold = []
  const warm = []
  const clicks = []
  const tiered = []
  for (let rep = 0; rep < reps; rep += 1) {
    const { context, page, errors } = await openApp(browser, urls.app)
    try {
      await fileInput(page, 'app').setInputFiles({
        name: 'code.wardflow.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(codeWorkflow())),
      })
      await page.locator('[data-testid="flow-node"][data-node-id="calc"]').waitFor()
      const first = await runOnce(page)
      cold.push(first.fromRunStartMs)
      clicks.push(first.clickToPaintMs)
      // Warm calls: every rep adds a few; the median is over all of them.
      for (let i = 0; i < Math.ceil(WARM_RUNS / Math.max(1, reps)) + 1; i += 1)
        warm.push((await runOnce(page)).nodeMs)
      if (rep === reps - 1) {
        for (let i = warm.length; i < TIERED_AFTER_RUNS; i += 1) await runOnce(page)
        for (let i = 0; i < TIERED_RUNS; i += 1) tiered.push((await runOnce(page)).nodeMs)
      }
      if (errors.length > 0) console.error('sandbox page errors:', errors)
    } finally {
      await context.close()
    }
  }
  console.error(
    `sandbox cold starts (ms): ${cold.join(', ')}; warm calls (ms): ${warm.join(', ')}; ` +
      `after ${TIERED_AFTER_RUNS} runs (ms): ${tiered.join(', ')}`,
  )
  const round = (list) => list.map((v) => Math.round(v * 10) / 10).join(', ')
  console.error(
    `sandbox runner alone: cold (ms) ${round(alone.cold)}; warm (ms) ${round(alone.warm)}; ` +
      `after ${PAGE_WARM_CALLS + TIERED_AFTER_RUNS} calls (ms) ${round(alone.late)}`,
  )
  const [c, w] = [median(alone.cold), median(alone.warm)]
  return [
    [
      'sandbox cold start: new worker runner -> first result',
      c,
      null,
      'ms',
      `<= ${COLD_MAX_MS} ms`,
      c <= COLD_MAX_MS,
    ],
    [
      `sandbox warm call (median of the ${PAGE_WARM_CALLS} calls after the first)`,
      w,
      null,
      'ms',
      `<= ${WARM_MAX_MS} ms`,
      w <= WARM_MAX_MS,
    ],
    [
      `sandbox warm call after ${PAGE_WARM_CALLS + TIERED_AFTER_RUNS} calls (wasm tiered up)`,
      median(alone.late),
      null,
      'ms',
      'info',
      true,
    ],
    ['in the app: first Code node run, run start -> result', median(cold), null, 'ms', 'info', true],
    ['in the app: Code node duration in later runs', median(warm), null, 'ms', 'info', true],
    [
      `in the app: Code node duration after ${TIERED_AFTER_RUNS} runs`,
      median(tiered),
      null,
      'ms',
      'info',
      true,
    ],
    ['in the app: first run, click -> result painted', median(clicks), null, 'ms', 'info', true],
  ]
}
