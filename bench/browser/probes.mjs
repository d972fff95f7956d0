// In-page probes, installed with page.addInitScript before any page script runs. They record
// long tasks and long animation frames from the start, animation-frame deltas on demand, when
// a set of canvas nodes is first drawn, and when a marker text first reaches the DOM. All times
// are performance.now() of the page.

export function installProbes() {
  const bench = {
    longtasks: [],
    loafs: [],
    frames: null,
    /** Resolves with performance.now() once the current frame has been painted. */
    afterPaint() {
      return new Promise((resolve) => {
        requestAnimationFrame(() => {
          const channel = new MessageChannel()
          channel.port1.onmessage = () => resolve(performance.now())
          channel.port2.postMessage(null)
        })
      })
    },
    startFrames() {
      const deltas = []
      let last = null
      const state = { deltas, stopped: false }
      const tick = (t) => {
        if (state.stopped) return
        if (last !== null) deltas.push(t - last)
        last = t
        requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
      bench.frames = state
    },
    stopFrames() {
      const state = bench.frames
      bench.frames = null
      if (!state) return []
      state.stopped = true
      return state.deltas
    },
    /**
     * Starts watching for the first painted frame in which every node whose top-left corner lies
     * inside the canvas (viewport 0,0 zoom 1) is drawn and visible. The clock starts at the next
     * `change` event of a file input (the import action). `bench.open` resolves to {start, end}.
     */
    watchOpen(positions) {
      // The canvas size is read once, before the action: no forced layout in the frames measured.
      const pane = document.querySelector('.react-flow')
      const { width, height } = pane.getBoundingClientRect()
      const waiting = new Set(positions.filter((p) => p.x < width && p.y < height).map((p) => p.id))
      bench.open = new Promise((resolve) => {
        let start = null
        document.addEventListener('change', () => (start ??= performance.now()), {
          capture: true,
          once: true,
        })
        const check = () => {
          if (start !== null) {
            const root = document.querySelector('.react-flow')
            for (const id of waiting) {
              const el = root?.querySelector(`.react-flow__node[data-id="${id}"]`)
              if (el && el.style.visibility === 'visible') waiting.delete(id)
            }
            if (waiting.size === 0) return void bench.afterPaint().then((end) => resolve({ start, end }))
          }
          requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      })
    },
    /**
     * `bench.marker` resolves with {firstText, inDom, painted}: when text first changed inside a
     * node console, when the marker text was first in the DOM, and when that frame was painted.
     */
    watchMarker(marker) {
      bench.marker = new Promise((resolve) => {
        let firstText = null
        const inConsole = (node) =>
          (node.nodeType === 3 ? node.parentElement : node)?.closest?.('[data-testid="node-console"]')
        const has = (node) => node.nodeType === 3 && node.data.endsWith(marker)
        const observer = new MutationObserver((records) => {
          const now = performance.now()
          for (const r of records) {
            if (firstText === null && inConsole(r.target)) firstText = now
            if (has(r.target) || [...r.addedNodes].some((n) => has(n) || n.textContent?.endsWith(marker))) {
              observer.disconnect()
              void bench
                .afterPaint()
                .then((painted) => resolve({ firstText: firstText ?? now, inDom: now, painted }))
              return
            }
          }
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
      })
    },
    /** Long tasks that started in [from, to]. */
    longtasksBetween(from, to) {
      return bench.longtasks.filter((t) => t.start >= from && t.start <= to)
    },
  }
  window.__bench = bench
  const observe = (type, list) => {
    try {
      new PerformanceObserver((entries) => {
        for (const e of entries.getEntries()) {
          const entry = { start: e.startTime, duration: e.duration }
          // Long animation frames say where the time went: scripts (with forced layout) and rendering.
          if (e.scripts) {
            entry.render = e.renderStart ? e.startTime + e.duration - e.renderStart : 0
            entry.layout = e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0
            entry.scripts = e.scripts.map((s) => ({
              invoker: s.invoker,
              where: `${s.sourceFunctionName ?? ''}@${(s.sourceURL ?? '').split('/').pop()}:${s.sourceCharPosition}`,
              duration: Math.round(s.duration),
              forcedLayout: Math.round(s.forcedStyleAndLayoutDuration),
            }))
          }
          list.push(entry)
        }
      }).observe({ type, buffered: true })
    } catch {
      // Not supported by this browser: the list stays empty.
    }
  }
  observe('longtask', bench.longtasks)
  observe('long-animation-frame', bench.loafs)
}

export function median(values) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
