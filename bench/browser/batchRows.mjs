// A 10,000-row batch in the page (issue 22): a CSV picked on the batch screen, as a person picks
// it, run through Input -> LLM -> Output against the local mock OpenAI-compatible server (a child
// process at nice 10, replying at once: the page's own work per row is what is measured), 8 rows
// at a time. Measured from the click on Run until the summary says every row is done: the
// renderer main thread's longest task in CPU time from a Chrome trace (the target: under 50 ms)
// with wall time beside it, and the tab's memory, sampled every second: the page's JS heap
// (performance.memory) and the largest renderer process's resident size (/proc via ps), both
// against 300 MB.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileInput, openApp } from './pages.mjs'
import { startMock } from './mock.mjs'
import { addProvider, yieldToBrowser } from './stream.mjs'
import { startCpuTrace, stopMainThreadTasks } from './trace.mjs'

const ROWS = 10_000
const CONCURRENCY = 8
const TASK_MAX_MS = 50
const MEMORY_MAX_MB = 300
const SAMPLE_EVERY_MS = 1_000
const RUN_TIMEOUT_MS = 20 * 60_000

const stamp = '2026-12-03T00:00:00.000Z'
const flow = {
  format: 'wardflow.workflow',
  version: 1,
  metadata: { id: 'bench-batch-rows', name: 'Batch rows bench', createdAt: stamp, updatedAt: stamp },
  nodes: [
    {
      id: 'in',
      type: 'input',
      position: { x: 0, y: 0 },
      data: { label: 'In', config: { configVersion: 1, values: { question: 'unset' } } },
    },
    {
      id: 'ask',
      type: 'llm',
      position: { x: 300, y: 0 },
      data: {
        label: 'Ask',
        config: {
          configVersion: 1,
          provider: 'mock',
          model: 'mock-model',
          systemPrompt: '',
          prompt: 'Answer: {{in.question}}',
          temperature: 0,
          maxTokens: 64,
          stream: true,
        },
      },
    },
    {
      id: 'out',
      type: 'output',
      position: { x: 600, y: 0 },
      data: { label: 'Out', config: { configVersion: 1, values: { answer: '{{ask.response}}' } } },
    },
  ],
  edges: [
    { id: 'e1', source: 'in', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'out' },
  ],
}

function csv() {
  const lines = ['question']
  for (let i = 0; i < ROWS; i += 1) lines.push(`"Question ${i}, in words"`)
  return `${lines.join('\n')}\n`
}

/**
 * This bench's renderer processes (descendants of this Node process, which launched Chromium;
 * other Chromiums on the machine are not counted), each with its resident size and its private
 * memory (what Chrome's task manager calls the footprint, without the shared libraries), in MB.
 */
function renderers() {
  let table
  try {
    table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
  } catch {
    return []
  }
  const procs = table
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter(Boolean)
    .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args }))
  const ours = new Set([process.pid])
  for (let grew = true; grew;) {
    grew = false
    for (const p of procs)
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid)
        grew = true
      }
  }
  return procs
    .filter((p) => ours.has(p.pid) && p.args.includes('--type=renderer'))
    .map((p) => memoryOf(p.pid))
    .filter(Boolean)
}

function memoryOf(pid) {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? NaN)
    return { rssMb: kb('Rss') / 1024, privateMb: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 }
  } catch {
    return null
  }
}

export async function measureBatchRows(browser, urls) {
  const restorePriority = yieldToBrowser()
  const mock = await startMock()
  const { context, page, errors } = await openApp(browser, urls.app)
  try {
    await addProvider(page, mock.baseUrl)
    await fileInput(page, 'app').setInputFiles({
      name: 'batch.wardflow.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(flow)),
    })
    await page.locator('[data-testid="flow-node"][data-node-id="ask"]').waitFor()
    await page.getByTestId('batch-open').click()
    await page.getByTestId('batch-screen').waitFor()
    await page
      .getByTestId('batch-data-input')
      .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(), 'utf8') })
    await page
      .getByTestId('batch-file')
      .getByText(/10,000 rows/)
      .waitFor({ timeout: 60_000 })
    await page.getByTestId('batch-concurrency').fill(String(CONCURRENCY))

    const heapMb = []
    const rssMb = []
    const privateMb = []
    const sample = async () => {
      heapMb.push(await page.evaluate(() => (performance.memory?.usedJSHeapSize ?? NaN) / 2 ** 20))
      // The tab is the largest renderer (a bench page has one; a worker's may add a small one).
      const now = renderers()
      rssMb.push(Math.max(0, ...now.map((r) => r.rssMb)))
      privateMb.push(Math.max(0, ...now.map((r) => r.privateMb)))
    }
    await sample()
    await startCpuTrace(page)
    const start = await page.evaluate(() => performance.now())
    await page.getByTestId('batch-run').click()
    const done = page
      .getByTestId('batch-summary')
      .getByText(/10,000 of 10,000 rows done/)
      .waitFor({ timeout: RUN_TIMEOUT_MS })
    let finished = false
    void done.then(() => (finished = true)).catch(() => undefined)
    while (!finished) {
      await sample()
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS))])
    }
    await done
    const end = await page.evaluate(() => window.__bench.afterPaint())
    await sample()
    const tasks = await stopMainThreadTasks(page, start, end)
    const wall = await page.evaluate(([a, b]) => window.__bench.longtasksBetween(a, b), [start, end])
    const summary = (await page.getByTestId('batch-summary').textContent()) ?? ''
    if (!/, 0 failed/.test(summary)) throw new Error(`rows failed: ${summary}`)
    if (errors.length > 0) console.error('batch page errors:', errors)
    const longest = tasks.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a), { cpuMs: 0, wallMs: 0 })
    const over = tasks.filter((t) => t.cpuMs > TASK_MAX_MS).length
    const maxWall = Math.max(0, ...wall.map((t) => t.duration))
    const maxHeap = Math.max(...heapMb)
    const maxRss = Math.max(...rssMb)
    const maxPrivate = Math.max(...privateMb)
    const seconds = (end - start) / 1000
    console.error(
      `  batch: ${ROWS} rows in ${seconds.toFixed(1)} s (${(ROWS / seconds).toFixed(0)} rows/s), ` +
        `${tasks.length} main-thread tasks, ${over} over ${TASK_MAX_MS} ms CPU; heap ${heapMb[0].toFixed(0)} -> ` +
        `max ${maxHeap.toFixed(0)} MB, renderer RSS max ${maxRss.toFixed(0)} MB, private ${maxPrivate.toFixed(0)} MB`,
    )
    const name = `batch of ${ROWS.toLocaleString('en')} rows, concurrency ${CONCURRENCY}`
    return [
      [
        `${name}: longest main-thread task, CPU`,
        longest.cpuMs,
        null,
        'ms',
        `no task > ${TASK_MAX_MS} ms`,
        over === 0,
      ],
      [`${name}: longest main-thread task, wall`, maxWall, null, 'ms', 'info', true],
      [
        `${name}: JS heap, max while running`,
        maxHeap,
        null,
        'MB',
        `< ${MEMORY_MAX_MB} MB`,
        maxHeap < MEMORY_MAX_MB,
      ],
      [
        `${name}: tab's renderer, private memory (footprint), max`,
        maxPrivate,
        null,
        'MB',
        `< ${MEMORY_MAX_MB} MB`,
        maxPrivate < MEMORY_MAX_MB,
      ],
      [`${name}: tab's renderer, resident (shared libraries too), max`, maxRss, null, 'MB', 'info', true],
      [`${name}: throughput`, ROWS / seconds, null, 'rows/s', 'info', true],
    ]
  } finally {
    await context.close()
    mock.close()
    restorePriority()
  }
}
