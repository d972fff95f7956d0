// Scheduling priorities for the browser figures. The machines are shared: other jobs can take
// most of the two cores, and a long-task bound of 50 ms then measures them, not the page. When
// allowed (root), the bench runs at a raised priority, as a browser in the foreground would:
// this process (Playwright's driver and the static servers), the mock server it starts, and
// Chromium, which inherits it at launch. Chromium sets some of its threads' nice values itself
// (the renderer's main thread back to 0, below the harness that measures it), so every Chromium
// thread is raised again after a page opens and before each measured run: the page and the
// harness are on an equal footing. BENCH_NICE=0 turns all of it off.
import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'

export const NICE = Number(process.env.BENCH_NICE ?? -10)

/** Raises this process's priority (Chromium and the mock server inherit it); false when not allowed. */
export function raiseOwnPriority() {
  if (NICE === 0) return false
  try {
    setPriority(NICE)
    return true
  } catch {
    return false
  }
}

/** The parent pid of each process on the machine. */
function parents() {
  const parent = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // Field 4 of /proc/PID/stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // The process ended meanwhile.
    }
  }
  return parent
}

/**
 * Gives every thread of every process this one started (Chromium's browser, renderers, GPU and
 * utility processes, and their workers) the raised priority. Call it after a page opened, as
 * Chromium sets a new thread's priority itself. Returns how many threads were raised.
 */
export function raiseBrowserThreads() {
  if (NICE === 0) return 0
  const parent = parents()
  const descends = (pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) return true
    return false
  }
  let raised = 0
  for (const pid of parent.keys()) {
    if (!descends(pid)) continue
    let threads
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue
      threads = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue // The process ended meanwhile.
    }
    for (const tid of threads) {
      try {
        // On Linux, setpriority on a thread id sets that one thread.
        setPriority(Number(tid), NICE)
        raised += 1
      } catch {
        // Not allowed, or the thread ended.
      }
    }
  }
  return raised
}
