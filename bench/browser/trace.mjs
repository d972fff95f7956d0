// CPU time of the page's main thread from a Chrome trace. On the shared 2-core machines other
// jobs preempt the page, so a wall time says as much about the neighbours as about the app; the
// CPU time of the renderer main thread's tasks says what the page itself asked of the thread.

export async function startCpuTrace(page) {
  await page
    .context()
    .browser()
    .startTracing(page, { categories: ['toplevel', 'blink.user_timing'] })
}

/**
 * Stops the trace started by startCpuTrace and sums the CPU time (ms) of the renderer main
 * thread's top-level slices that started in [from, to] (page clock, performance.now()).
 */
export async function stopCpuTrace(page, from, to) {
  const now = await page.evaluate(() => {
    performance.mark('bench:sync')
    return performance.now()
  })
  const buffer = await page.context().browser().stopTracing()
  const events = JSON.parse(buffer.toString('utf8')).traceEvents ?? []
  const sync = events.find((e) => e.name === 'bench:sync')
  if (!sync) throw new Error('the trace has no bench:sync mark: the CPU times cannot be placed')
  const toTrace = (ms) => sync.ts + (ms - now) * 1000
  const [a, b] = [toTrace(from), toTrace(to)]
  // Top-level slices of the main thread: tasks, and microtask checkpoints and mojo messages,
  // which the trace does not always nest inside a task. Nested slices are skipped.
  const slices = events
    .filter((e) => e.pid === sync.pid && e.tid === sync.tid && e.ph === 'X' && e.ts >= a && e.ts <= b)
    .sort((x, y) => x.ts - y.ts || y.dur - x.dur)
  let cpu = 0
  let until = -Infinity
  for (const e of slices) {
    if (e.ts < until) continue
    cpu += (e.tdur ?? e.dur) / 1000
    until = e.ts + e.dur
  }
  return cpu
}
