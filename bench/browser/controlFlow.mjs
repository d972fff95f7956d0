// Issue 17's canvas figures: a 2,000-node flow with branches (conditions with case handles,
// merges) and loops (containers with body nodes) opened and dragged in the app, beside the bare
// React Flow page opening the same file (the loops as parent nodes with their bodies as
// children). Each figure is a ratio of medians measured in one run, app and bare repetitions
// alternating so they share the machine's noise. The open is judged on the main thread's CPU
// time (a Chrome trace: what the page asked of the thread, not what the neighbours took) and
// its wall time is printed beside it; the drag drags a loop, so its body moves with it.
import { dragNode, openFlow } from './canvas.mjs'
import { controlFlowWorkflow } from './controlFlows.mjs'
import { median } from './probes.mjs'

export const CONTROL_FLOW_NODES = 2000
const OPEN_MAX_RATIO = 2
const DRAG_MAX_RATIO = 1.5
/** The first block's loop: in view in both pages after the open, well inside the canvas. */
const DRAGGED = 'b0loop'

export async function measureControlFlow(browser, urls, pane, reps) {
  const wall = { app: [], bare: [] }
  const cpu = { app: [], bare: [] }
  const frames = { app: [], bare: [] }
  const busy = { app: [], bare: [] }
  for (let rep = 0; rep < Math.max(3, reps); rep += 1) {
    for (const kind of rep % 2 === 0 ? ['app', 'bare'] : ['bare', 'app']) {
      const opened = await openFlow(browser, urls, kind, CONTROL_FLOW_NODES, pane, {
        make: controlFlowWorkflow,
        cpu: true,
      })
      wall[kind].push(opened.openMs)
      cpu[kind].push(opened.cpuMs)
      const d = await dragNode(opened.page, { nodeId: DRAGGED })
      frames[kind].push(median(d.frames))
      busy[kind].push(d.busyPerFrameMs)
      if (opened.errors.length > 0) console.error(`${kind} page errors:`, opened.errors)
      await opened.context.close()
    }
  }
  const name = `${CONTROL_FLOW_NODES.toLocaleString('en')}-node flow with branches and loops`
  const [ac, bc] = [median(cpu.app), median(cpu.bare)]
  const [aw, bw] = [median(wall.app), median(wall.bare)]
  const [af, bf] = [median(frames.app), median(frames.bare)]
  const [ab, bb] = [median(busy.app), median(busy.bare)]
  return [
    [
      `open ${name}: main-thread CPU, import -> all visible nodes painted`,
      ac,
      bc,
      'ms',
      `<= ${OPEN_MAX_RATIO}x bare`,
      ac <= OPEN_MAX_RATIO * bc,
    ],
    [`open ${name}: wall time`, aw, bw, 'ms', 'info', true],
    [
      `drag a loop in ${name}: median frame`,
      af,
      bf,
      'ms',
      `<= ${DRAG_MAX_RATIO}x bare`,
      af <= DRAG_MAX_RATIO * bf,
    ],
    [`drag a loop in ${name}: main-thread busy per frame`, ab, bb, 'ms', 'info', true],
  ]
}
