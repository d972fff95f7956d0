// Workflow files the browser bench imports: N nodes of the real node types in a grid, each row a
// chain (acyclic), written in the `wardflow.workflow` format so the app opens them through its
// own import path. The bare React Flow page reads the same file and draws the same nodes (same
// ids, labels, positions, edges) with React Flow's default node.

export const GRID_COLUMNS = 25
export const GRID_DX_PX = 280
export const GRID_DY_PX = 160

const TYPES = ['input', 'template', 'llm', 'code', 'http', 'output']

function configOf(type, i) {
  switch (type) {
    case 'input':
      return { configVersion: 1, values: { topic: `topic ${i}` } }
    case 'template':
      return { configVersion: 1, template: `Write one line about item ${i}.` }
    case 'llm':
      return { configVersion: 1, provider: 'demo', prompt: `Summarise item ${i}.`, stream: true }
    case 'code':
      return { configVersion: 1, code: `return { item: ${i}, doubled: ${i * 2} }\n` }
    case 'http':
      return { configVersion: 1, method: 'GET', url: `https://example.com/items/${i}` }
    default:
      return { configVersion: 1, values: { result: `item ${i}` } }
  }
}

/** A `wardflow.workflow` document with `count` nodes; `id` keeps repeated imports apart. */
export function gridWorkflow(count, id = `bench-${count}`) {
  const nodes = []
  const edges = []
  for (let i = 0; i < count; i += 1) {
    const type = TYPES[i % TYPES.length]
    const column = i % GRID_COLUMNS
    nodes.push({
      id: `n${i}`,
      type,
      position: { x: column * GRID_DX_PX, y: Math.floor(i / GRID_COLUMNS) * GRID_DY_PX },
      data: { label: `${type} ${i}`, config: configOf(type, i) },
    })
    if (column > 0) {
      edges.push({
        id: `e${i}`,
        source: `n${i - 1}`,
        target: `n${i}`,
        sourceHandle: 'out',
        targetHandle: 'in',
      })
    }
  }
  const stamp = '2026-11-29T00:00:00.000Z'
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id,
      name: `Bench ${count} nodes`,
      description: '',
      tags: [],
      createdAt: stamp,
      updatedAt: stamp,
    },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges,
  }
}

/** The flow as a file for Playwright's setInputFiles. */
export function workflowFile(doc) {
  return {
    name: `${doc.metadata.id}.wardflow.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  }
}

/**
 * `gridWorkflow(count)` with `edgeCount` distinct forward connections instead of the row chains:
 * each node to the next one, then to the one after, and so on (acyclic, no copies), e.g. 5,000
 * nodes and 20,000 connections, the most a flow may hold (FLOW_MAX_EDGES).
 */
export function denseWorkflow(count, edgeCount, id = `bench-${count}-${edgeCount}`) {
  const doc = gridWorkflow(count, id)
  doc.metadata.name = `Bench ${count} nodes, ${edgeCount} connections`
  const edges = []
  for (let gap = 1; edges.length < edgeCount && gap < count; gap += 1) {
    for (let i = 0; i + gap < count && edges.length < edgeCount; i += 1) {
      edges.push({
        id: `e${i}-${gap}`,
        source: `n${i}`,
        target: `n${i + gap}`,
        sourceHandle: 'out',
        targetHandle: 'in',
      })
    }
  }
  doc.edges = edges
  return doc
}
