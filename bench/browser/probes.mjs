// In-page probes, installed with page.addInitScript before any page script runs. They record
// long tasks and long animation frames from the start, animation-frame deltas on demand, when
// a set of canvas nodes is first drawn, and when a marker text first reaches the DOM. All times
// are performance.now() of the page.

export function installProbes() {
  // Room for every request of a long session (the default 250 fills up once Monaco loads).
  performance.setResourceTimingBufferSize(10_000)
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
     * Watches an open: the clock starts at the next `change` event of a file input (the import
     * action); `bench.open` resolves to {start, end, visible} once the canvas has settled (its
     * viewport and the set of drawn nodes unchanged for `settleMs`). `end` is when the first frame
     * was painted from which on the canvas stayed at its final viewport with every node whose
     * top-left corner lies inside the canvas at that viewport drawn and visible; `visible` is how
     * many nodes that was. Judged after the fact, so a frame drawn before the app fitted the flow
     * into view (other nodes, another zoom) cannot end the measure early. Settled also takes
     * `settleFrames` frames in a row with the same picture: two frames around a task longer than
     * `settleMs` are not a settled canvas (bare React Flow measuring 2,000 nodes with loop parents
     * draws only the parents, then works 0.8 s, then draws the rest).
     */
    watchOpen(positions, { settleMs = 500, settleFrames = 10 } = {}) {
      // The canvas size is read once, before the action: no forced layout in the frames measured.
      const pane = document.querySelector('.react-flow')
      const { width, height } = pane.getBoundingClientRect()
      const frames = []
      bench.open = new Promise((resolve) => {
        let start = null
        document.addEventListener('change', () => (start ??= performance.now()), {
          capture: true,
          once: true,
        })
        const settled = (final) => {
          const [tx, ty, zoom] = final.view
          const visible = positions
            .filter((p) => {
              const [x, y] = [p.x * zoom + tx, p.y * zoom + ty]
              return x >= 0 && x < width && y >= 0 && y < height
            })
            .map((p) => p.id)
          if (!visible.every((id) => final.drawn.has(id))) {
            const missing = visible.filter((id) => !final.drawn.has(id)).slice(0, 5)
            return void resolve({ start, end: NaN, visible: visible.length, missing })
          }
          let first = frames.length
          while (first > 0) {
            const f = frames[first - 1]
            if (f.transform !== final.transform || !visible.every((id) => f.drawn.has(id))) break
            first -= 1
          }
          const frame = frames[first]
          void frame.painted.then((end) => resolve({ start, end, visible: visible.length }))
        }
        const check = () => {
          if (start !== null) {
            const root = document.querySelector('.react-flow')
            const transform = root?.querySelector('.react-flow__viewport')?.style.transform ?? ''
            const match = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(transform)
            const drawn = new Set()
            for (const el of root?.getElementsByClassName('react-flow__node') ?? []) {
              if (el.style.visibility === 'visible' && el.firstElementChild) drawn.add(el.dataset.id)
            }
            const frame = {
              at: performance.now(),
              transform,
              view: match ? match.slice(1).map(Number) : [0, 0, 1],
              drawn,
              painted: new Promise((done) => {
                const channel = new MessageChannel()
                channel.port1.onmessage = () => done(performance.now())
                channel.port2.postMessage(null)
              }),
            }
            const last = frames[frames.length - 1]
            const same =
              last !== undefined &&
              last.transform === transform &&
              last.drawn.size === drawn.size &&
              [...drawn].every((id) => last.drawn.has(id))
            frame.since = same ? last.since : frame.at
            frame.sameFrames = same ? last.sameFrames + 1 : 1
            frames.push(frame)
            if (drawn.size > 0 && frame.at - frame.since >= settleMs && frame.sameFrames >= settleFrames)
              return void settled(frame)
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
