// The control-flow workflow the browser bench opens and drags (issue 17): blocks of ten nodes,
// each a Loop container (forEach) with a body of two nodes (`parentId`, positions relative to
// the loop), an Input, a Condition with two cases and `else` (three labelled output handles)
// reading both, one Template per branch, a Merge joining them and an Output. Written in the
// `wardflow.workflow` format so the app opens it through its own import; the bare React Flow
// page draws the same nodes, with the loop as a parent node holding the body nodes.
import { GRID_DX_PX, GRID_DY_PX } from './flows.mjs'

/** Nodes in one block, so a flow of `count` nodes has `count / BLOCK_NODES` blocks. */
export const BLOCK_NODES = 10
/** Blocks side by side in one band of the grid (a block is 7 columns and 3 rows). */
const BLOCKS_PER_BAND = 3
const BLOCK_COLUMNS = 7
const BLOCK_ROWS = 3
/** The loop box: two grid columns wide, the block's three rows high, less a gap. */
const LOOP_SIZE = { width: 2 * GRID_DX_PX - 20, height: BLOCK_ROWS * GRID_DY_PX - 40 }
/** The body's two nodes, relative to the loop's corner, inside its box. */
const BODY_AT = [
  { x: 24, y: 110 },
  { x: 256, y: 280 },
]

const edge = (id, source, target, sourceHandle = 'out', targetHandle = 'in') => ({
  id,
  source,
  target,
  sourceHandle,
  targetHandle,
})

/**
 * Block `b`: the loop first (its box at the block's left, three rows high), so the flow's first
 * node, which the app shows when it opens a flow too big to fit, is a loop both pages draw in
 * full and the drag can move; then the Input and the Condition reading both, the branches, the
 * Merge and the Output.
 */
function block(b, nodes, edges) {
  const band = Math.floor(b / BLOCKS_PER_BAND)
  const ox = (b % BLOCKS_PER_BAND) * BLOCK_COLUMNS * GRID_DX_PX
  const oy = band * BLOCK_ROWS * GRID_DY_PX
  const at = (column, row) => ({ x: ox + column * GRID_DX_PX, y: oy + row * GRID_DY_PX })
  const id = (part) => `b${b}${part}`
  const add = (part, type, position, config, extra = {}) =>
    nodes.push({
      id: id(part),
      type,
      position,
      ...extra,
      data: { label: `${type} ${b}${part}`, config: { configVersion: 1, ...config } },
    })
  add(
    'loop',
    'loop',
    at(0, 0),
    { mode: 'forEach', items: '["one","two","three"]', concurrency: 2, resultNode: id('fmt') },
    { size: LOOP_SIZE },
  )
  add(
    'step',
    'template',
    BODY_AT[0],
    { template: `#{{${id('loop')}.index}} {{${id('loop')}.item}}` },
    {
      parentId: id('loop'),
    },
  )
  add('fmt', 'template', BODY_AT[1], { template: `{{${id('step')}.text}} done` }, { parentId: id('loop') })
  add('in', 'input', at(2, 0), { values: { topic: `topic ${b}`, urgency: String(b % 5) } })
  add('route', 'condition', at(3, 1), {
    cases: [
      {
        id: 'billing',
        label: 'Billing',
        match: 'all',
        rules: [{ value: `{{${id('in')}.topic}}`, op: 'contains', to: 'bill' }],
      },
      {
        id: 'urgent',
        match: 'any',
        rules: [
          { value: `{{${id('in')}.urgency}}`, op: 'gte', to: '4' },
          { value: `{{${id('loop')}.count}}`, op: 'gt', to: '5' },
        ],
      },
    ],
  })
  edges.push(edge(id('e-step-fmt'), id('step'), id('fmt')))
  edges.push(edge(id('e-loop-route'), id('loop'), id('route')))
  edges.push(edge(id('e-in-route'), id('in'), id('route')))
  const branches = [
    ['a', 'billing'],
    ['b', 'urgent'],
    ['c', 'else'],
  ]
  branches.forEach(([part, handle], row) => {
    add(part, 'template', at(4, row), { template: `${handle}: {{${id('in')}.topic}}` })
    edges.push(edge(id(`e-route-${part}`), id('route'), id(part), handle))
    edges.push(edge(id(`e-${part}-merge`), id(part), id('merge')))
  })
  add('merge', 'merge', at(5, 1), { mode: 'first' })
  add('out', 'output', at(6, 1), {
    values: { result: `{{${id('merge')}.value}}`, items: `{{${id('loop')}.results}}` },
  })
  edges.push(edge(id('e-merge-out'), id('merge'), id('out')))
}

/**
 * A `wardflow.workflow` document of `count` nodes (a multiple of BLOCK_NODES) in blocks with
 * branches, merges and loops; `id` keeps repeated imports apart.
 */
export function controlFlowWorkflow(count, id = `bench-control-${count}`) {
  const nodes = []
  const edges = []
  for (let b = 0; b < Math.ceil(count / BLOCK_NODES); b += 1) block(b, nodes, edges)
  const stamp = '2026-12-02T00:00:00.000Z'
  return {
    format: 'wardflow.workflow',
    version: 2,
    metadata: {
      id,
      name: `Bench ${count} nodes with branches and loops`,
      description: '',
      tags: [],
      createdAt: stamp,
      updatedAt: stamp,
    },
    // What the bare page shows (the app fits an imported flow): the first loop with a margin,
    // so dragging it never comes near the canvas's edge, where React Flow would pan.
    viewport: { x: 40, y: 60, zoom: 1 },
    nodes,
    edges,
    subflows: [],
  }
}

/** Each node's position on the canvas itself (a body node's is relative to its loop's). */
export function absolutePositions(doc) {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]))
  const absolute = (n) => {
    const parent = n.parentId === undefined ? undefined : byId.get(n.parentId)
    if (!parent) return n.position
    const p = absolute(parent)
    return { x: p.x + n.position.x, y: p.y + n.position.y }
  }
  return doc.nodes.map((n) => ({ id: n.id, ...absolute(n) }))
}
