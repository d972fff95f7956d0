/**
 * Probes that run inside the page, so slow test-runner round trips do not blur what they see:
 * a console-length sampler, a node-status recorder and an animation-frame recorder.
 */
import type { Page } from '@playwright/test'

interface ProbeWindow {
  __probes?: {
    lengths: number[]
    statuses: Array<{ status: string; at: number }>
    frames: number[]
    moves: Array<{ x: number; y: number; at: number }>
  }
}

/**
 * Starts recording, for node `id`: its console's text length every `everyMs` while it is
 * queued or running, every change of its `data-status` (with performance.now()), and every
 * animation frame; for node `movingId` (optional), every change of its place on screen.
 */
export async function startProbes(page: Page, id: string, movingId = '', everyMs = 40): Promise<void> {
  await page.evaluate(
    ({ id, movingId, everyMs }) => {
      const w = window as unknown as ProbeWindow
      const probes = {
        lengths: [] as number[],
        statuses: [] as Array<{ status: string; at: number }>,
        frames: [] as number[],
        moves: [] as Array<{ x: number; y: number; at: number }>,
      }
      w.__probes = probes
      const node = (): Element | null =>
        document.querySelector(`[data-testid="flow-node"][data-node-id="${id}"]`)
      let last = ''
      const watch = (): void => {
        const el = node()
        const status = el?.getAttribute('data-status') ?? ''
        if (status !== last) {
          probes.statuses.push({ status, at: performance.now() })
          last = status
        }
        if (status === 'running' || status === 'queued') {
          probes.lengths.push(el?.querySelector('[data-testid="node-console"]')?.textContent?.length ?? 0)
        }
      }
      setInterval(watch, everyMs)
      new MutationObserver(watch).observe(document.body, {
        subtree: true,
        attributes: true,
        attributeFilter: ['data-status'],
      })
      const frame = (t: number): void => {
        if (probes.frames.length < 100_000) probes.frames.push(t)
        const moving =
          movingId === ''
            ? null
            : document.querySelector(`[data-testid="flow-node"][data-node-id="${movingId}"]`)
        const rect = moving?.getBoundingClientRect()
        const previous = probes.moves[probes.moves.length - 1]
        if (rect && (!previous || previous.x !== rect.x || previous.y !== rect.y)) {
          probes.moves.push({ x: rect.x, y: rect.y, at: t })
        }
        requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
    },
    { id, movingId, everyMs },
  )
}

export interface ProbeResults {
  /** Console text lengths sampled while the node was queued or running. */
  lengths: number[]
  statuses: Array<{ status: string; at: number }>
  frames: number[]
  /** Where the watched node was on screen, each time it moved (page clock). */
  moves: Array<{ x: number; y: number; at: number }>
}

export async function readProbes(page: Page): Promise<ProbeResults> {
  return page.evaluate(() => {
    const probes = (window as unknown as ProbeWindow).__probes
    if (!probes) throw new Error('startProbes was not called')
    return {
      lengths: [...probes.lengths],
      statuses: [...probes.statuses],
      frames: [...probes.frames],
      moves: [...probes.moves],
    }
  })
}

/** When the node first showed `status` (page clock), or undefined. */
export function statusAt(results: ProbeResults, status: string): number | undefined {
  return results.statuses.find((s) => s.status === status)?.at
}

/** The longest gap between animation frames inside [from, to] (page clock). */
export function longestFrameGap(frames: readonly number[], from: number, to: number): number {
  const inside = frames.filter((t) => t >= from && t <= to)
  let gap = 0
  let previous = from
  for (const t of inside) {
    gap = Math.max(gap, t - previous)
    previous = t
  }
  return Math.max(gap, to - previous)
}
