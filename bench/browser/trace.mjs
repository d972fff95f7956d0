// CPU time of the page's main thread from a Chrome trace. On the shared 2-core machines other
// jobs preempt the page, so a wall time says as much about the neighbours as about the app; the
// CPU time of the renderer main thread's tasks says what the page itself asked of the thread.
//
// One definition of a "task" for every figure (the canvas open's CPU sum, the stream's longest
// task): an outermost slice of the renderer main thread, nested slices skipped. Counting only
// slices named RunTask misses work the trace does not always nest inside one (microtask
// checkpoints, mojo messages, which are the thread's work all the same); counting every slice
// counts nested ones twice. Outermost slices count each microsecond of the thread once.

export async function startCpuTrace(page) {
  await page
    .context()
    .browser()
    .startTracing(page, { categories: ['toplevel', 'blink.user_timing'] })
}

/**
 * Stops the trace started by startCpuTrace and returns the renderer main thread's outermost
 * slices that started in [from, to] (page clock, performance.now()), in order, each as
 * `{ start, wallMs, cpuMs }` with `start` on the page clock.
 */
export async function stopMainThreadTasks(page, from, to) {
  const now = await page.evaluate(() => {
    performance.mark('bench:sync')
    return performance.now()
  })
  const buffer = await page.context().browser().stopTracing()
  const events = JSON.parse(buffer.toString('utf8')).traceEvents ?? []
  const sync = events.find((e) => e.name === 'bench:sync')
  if (!sync) throw new Error('the trace has no bench:sync mark: the CPU times cannot be placed')
  const toTrace = (ms) => sync.ts + (ms - now) * 1000
  const toPage = (ts) => now + (ts - sync.ts) / 1000
  const [a, b] = [toTrace(from), toTrace(to)]
  const slices = events
    .filter((e) => e.pid === sync.pid && e.tid === sync.tid && e.ph === 'X' && e.ts >= a && e.ts <= b)
    .sort((x, y) => x.ts - y.ts || y.dur - x.dur)
  const tasks = []
  let until = -Infinity
  for (const e of slices) {
    if (e.ts < until) continue
    tasks.push({ start: toPage(e.ts), wallMs: e.dur / 1000, cpuMs: (e.tdur ?? e.dur) / 1000 })
    until = e.ts + e.dur
  }
  return tasks
}

/** The main thread's CPU time (ms) in [from, to] (page clock): the sum over its tasks. */
export async function stopCpuTrace(page, from, to) {
  const tasks = await stopMainThreadTasks(page, from, to)
  return tasks.reduce((sum, t) => sum + t.cpuMs, 0)
}
