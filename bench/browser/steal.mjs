// CPU time the hypervisor took from this virtual machine ("steal", /proc/stat) while a figure was
// measured. On a shared VM a vCPU can be descheduled for tens of milliseconds; a 4 ms frame that
// falls into such a gap is reported as a long task although the page asked for 4 ms. Printed
// beside the stream runs so a reader can tell the page's long tasks from the host's.
import { readFileSync } from 'node:fs'

const SAMPLE_MS = 20
const WINDOW_MS = 100
/** /proc/stat counts in USER_HZ ticks: 100 per second on Linux. */
const TICK_MS = 10

/** Steal ticks summed over every vCPU; undefined where /proc/stat does not exist. */
function stealTicks() {
  try {
    const total = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/)
    return total && total[0] === 'cpu' ? Number(total[8] ?? 0) : undefined
  } catch {
    return undefined
  }
}

/**
 * Starts sampling; `stop()` returns the steal over the whole span (ms of vCPU time, all vCPUs
 * together) and the most stolen within any WINDOW_MS, or null off Linux.
 */
export function startStealSampler() {
  const first = stealTicks()
  if (first === undefined) return { stop: () => null, between: () => NaN }
  const samples = [{ at: performance.now(), ticks: first }]
  const timer = setInterval(() => {
    const ticks = stealTicks()
    if (ticks !== undefined) samples.push({ at: performance.now(), ticks })
  }, SAMPLE_MS)
  return {
    stop() {
      clearInterval(timer)
      const last = stealTicks() ?? samples.at(-1).ticks
      samples.push({ at: performance.now(), ticks: last })
      let worst = 0
      for (let i = 0, j = 0; i < samples.length; i += 1) {
        while (samples[j].at < samples[i].at - WINDOW_MS) j += 1
        worst = Math.max(worst, samples[i].ticks - samples[j].ticks)
      }
      return { totalMs: (last - first) * TICK_MS, worstWindowMs: worst * TICK_MS, windowMs: WINDOW_MS }
    },
    /** Steal (ms) sampled between two times of this process's clock, one sample either side. */
    between(from, to) {
      const before = samples.findLast((s) => s.at <= from) ?? samples[0]
      const after = samples.find((s) => s.at >= to) ?? samples.at(-1)
      return (after.ticks - before.ticks) * TICK_MS
    },
  }
}
