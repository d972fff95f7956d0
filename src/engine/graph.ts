/**
 * Graph helpers over a flow's nodes and edges: adjacency, topological order, cycles that name
 * their nodes, ancestor/descendant sets, and the canvas's "would this edge close a loop" check.
 * Edges whose ends are missing are ignored here (preflight reports them).
 */
import type { FlowDocument, FlowEdge, FlowNode } from './flow.ts'
import { DEFAULT_INPUT_PORT, DEFAULT_OUTPUT_PORT } from './nodeType.ts'

/** Just the parts of a flow the graph helpers read. */
export type FlowShape = {
  nodes: readonly Pick<FlowNode, 'id'>[]
  edges: readonly Pick<FlowEdge, 'source' | 'target'>[]
}

/** Which edges are the same connection: the same source port to the same target port. */
export function edgeKey(
  edge: Pick<FlowEdge, 'source' | 'target'> & Partial<Pick<FlowEdge, 'sourceHandle' | 'targetHandle'>>,
): string {
  const out = edge.sourceHandle ?? DEFAULT_OUTPUT_PORT
  const into = edge.targetHandle ?? DEFAULT_INPUT_PORT
  return `${edge.source}\u0000${out}\u0000${edge.target}\u0000${into}`
}

/**
 * For each edge of the graph, the output ports it leaves from: `ports.get(parent)?.get(child)`
 * lists the source handles of every edge parent -> child (`out` for an edge that names none).
 */
export function sourcePorts(
  flow: { edges: readonly Pick<FlowEdge, 'source' | 'target' | 'sourceHandle'>[] },
  graph: FlowGraph,
): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>()
  for (const edge of flow.edges) {
    if (!graph.parents.has(edge.source) || !graph.parents.has(edge.target)) continue
    let byChild = out.get(edge.source)
    if (!byChild) out.set(edge.source, (byChild = new Map()))
    const list = byChild.get(edge.target) ?? []
    const port = edge.sourceHandle ?? DEFAULT_OUTPUT_PORT
    if (!list.includes(port)) list.push(port)
    byChild.set(edge.target, list)
  }
  return out
}

/** Adjacency lists keyed by node id, in document order, without duplicate edges. */
export interface FlowGraph {
  ids: string[]
  parents: Map<string, string[]>
  children: Map<string, string[]>
}

/** Builds adjacency for `flow`. Pass `include` to keep only some nodes (e.g. executable ones). */
export function buildGraph(flow: FlowShape, include?: (id: string) => boolean): FlowGraph {
  const ids: string[] = []
  const parents = new Map<string, string[]>()
  const children = new Map<string, string[]>()
  for (const node of flow.nodes) {
    if (parents.has(node.id) || (include && !include(node.id))) continue
    ids.push(node.id)
    parents.set(node.id, [])
    children.set(node.id, [])
  }
  const seen = new Set<string>()
  for (const edge of flow.edges) {
    const up = children.get(edge.source)
    const down = parents.get(edge.target)
    const key = `${edge.source}\u0000${edge.target}`
    if (!up || !down || seen.has(key)) continue
    seen.add(key)
    up.push(edge.target)
    down.push(edge.source)
  }
  return { ids, parents, children }
}

function asGraph(flow: FlowShape | FlowGraph): FlowGraph {
  return 'parents' in flow ? flow : buildGraph(flow)
}

/** Result of ordering: `order` holds every node outside cycles; `cyclic` the rest. */
export interface TopoResult {
  order: string[]
  /** Nodes that are on, or downstream of, a cycle and so could never start. */
  cyclic: string[]
}

/** Kahn's algorithm; ties keep document order, so the order is stable for the same flow. */
export function topologicalSort(flow: FlowShape | FlowGraph): TopoResult {
  const graph = asGraph(flow)
  const remaining = new Map<string, number>()
  const queue: string[] = []
  for (const id of graph.ids) {
    const count = graph.parents.get(id)?.length ?? 0
    remaining.set(id, count)
    if (count === 0) queue.push(id)
  }
  for (let head = 0; head < queue.length; head++) {
    for (const child of graph.children.get(queue[head] as string) ?? []) {
      const left = (remaining.get(child) ?? 0) - 1
      remaining.set(child, left)
      if (left === 0) queue.push(child)
    }
  }
  const placed = new Set(queue)
  return { order: queue, cyclic: graph.ids.filter((id) => !placed.has(id)) }
}

/**
 * Every cycle as a list of node ids in edge order (`[a, b, c]` means a -> b -> c -> a), one per
 * strongly connected component, plus self-loops as `[a]`. Empty when the graph is acyclic.
 */
export function findCycles(flow: FlowShape | FlowGraph): string[][] {
  const graph = asGraph(flow)
  const cycles: string[][] = []
  for (const component of stronglyConnected(graph)) {
    const first = component[0] as string
    if (component.length === 1) {
      if (graph.children.get(first)?.includes(first)) cycles.push([first])
      continue
    }
    cycles.push(cycleWithin(graph, new Set(component), first))
  }
  return cycles
}

/** Tarjan's algorithm, iterative so a long chain cannot overflow the stack. */
function stronglyConnected(graph: FlowGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  let counter = 0
  for (const root of graph.ids) {
    if (index.has(root)) continue
    const work: Array<{ id: string; next: number }> = [{ id: root, next: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1] as { id: string; next: number }
      const kids = graph.children.get(frame.id) ?? []
      if (frame.next < kids.length) {
        const child = kids[frame.next++] as string
        if (!index.has(child)) {
          index.set(child, counter)
          low.set(child, counter++)
          stack.push(child)
          onStack.add(child)
          work.push({ id: child, next: 0 })
        } else if (onStack.has(child)) {
          low.set(frame.id, Math.min(low.get(frame.id) as number, index.get(child) as number))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.id, Math.min(low.get(parent.id) as number, low.get(frame.id) as number))
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = []
        for (;;) {
          const member = stack.pop() as string
          onStack.delete(member)
          component.push(member)
          if (member === frame.id) break
        }
        out.push(component.reverse())
      }
    }
  }
  return out
}

/** A shortest cycle through `start` inside one strongly connected component (BFS). */
function cycleWithin(graph: FlowGraph, members: ReadonlySet<string>, start: string): string[] {
  const previous = new Map<string, string>()
  const queue = [start]
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head] as string
    for (const child of graph.children.get(id) ?? []) {
      if (!members.has(child)) continue
      if (child === start) {
        const path = [id]
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string)
        return path
      }
      if (!previous.has(child) && child !== start) {
        previous.set(child, id)
        queue.push(child)
      }
    }
  }
  return [start]
}

function walk(next: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>()
  const stack = [...(next.get(from) ?? [])]
  while (stack.length > 0) {
    const id = stack.pop() as string
    if (seen.has(id)) continue
    seen.add(id)
    for (const n of next.get(id) ?? []) if (!seen.has(n)) stack.push(n)
  }
  return seen
}

/** Every node `nodeId` depends on, directly or not (excluding itself unless on a cycle). */
export function ancestors(flow: FlowShape | FlowGraph, nodeId: string): Set<string> {
  return walk(asGraph(flow).parents, nodeId)
}

/** Every node that depends on `nodeId`, directly or not. */
export function descendants(flow: FlowShape | FlowGraph, nodeId: string): Set<string> {
  return walk(asGraph(flow).children, nodeId)
}

/** Direct upstream node ids of `nodeId`, in edge order. */
export function directUpstream(flow: FlowShape | FlowGraph, nodeId: string): string[] {
  return [...(asGraph(flow).parents.get(nodeId) ?? [])]
}

/**
 * True when adding the edge `source -> target` would close a loop (including a self-loop), so the
 * canvas can refuse the connection before it exists.
 */
export function wouldCreateCycle(
  flow: FlowShape | Pick<FlowDocument, 'nodes' | 'edges'>,
  source: string,
  target: string,
): boolean {
  if (source === target) return true
  return descendants(flow, target).has(source)
}
