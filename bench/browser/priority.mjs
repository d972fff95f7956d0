// Scheduling priorities for the browser figures. The machines are shared: other jobs can take
// most of the two cores, and a long-task bound of 50 ms then measures them, not the page. When
// allowed (root), the bench runs at a raised priority, as a browser in the foreground would:
// this process (Playwright's driver and the static servers) and the mock server it starts.
// Chromium sets its threads' nice values itself (display-critical threads such as the
// compositor and the IO threads at -8, the rest at 0, a background page's main thread at 5),
// ignoring the priority it was launched with. So after a page opens and before each measured
// run, every Chromium thread is moved up by the same amount, once per value Chromium gave it:
// the page is on an equal footing with the harness, and Chromium's own order between its
// threads is kept (setting every thread to the same value instead slowed the sandbox's cold
// start: medians of 264-299 ms against 168-207 ms with no raise at all, in back-to-back runs).
// BENCH_NICE=0 turns all of it off.
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

/** Nice value of a thread, from field 19 of /proc/PID/task/TID/stat; undefined when it ended. */
function niceOf(pid, tid) {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  } catch {
    return undefined
  }
}

/** The nice value this module gave each thread, so a thread is moved once, not again each call. */
const given = new Map()

/**
 * Moves every thread of every Chromium process this one started (browser, renderers, GPU and
 * utility processes, and their workers) up by NICE from the value Chromium gave it. Call it
 * after a page opened, as Chromium sets a new thread's priority itself. Returns how many
 * threads were moved.
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
      const nice = niceOf(pid, tid)
      if (nice === undefined || given.get(tid) === nice) continue
      const target = Math.max(-20, Math.min(19, nice + NICE))
      try {
        // On Linux, setpriority on a thread id sets that one thread.
        setPriority(Number(tid), target)
        given.set(tid, target)
        raised += 1
      } catch {
        // Not allowed, or the thread ended.
      }
    }
  }
  return raised
}
