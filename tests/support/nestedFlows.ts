/**
 * Flows that nest loops and sub-flows in every order, for the tests of where events happened
 * (engine nesting.ts) and of everyone who reads it (run store, run record, CLI printer).
 * The called flows reuse the callers' node ids (`out`, `each`) on purpose: an event that lands on
 * the wrong node shows.
 */
import type { FlowDocument, NodeRegistry, RunEvent } from '../../src/engine/run.ts'
import { runFlow } from '../../src/engine/run.ts'
import { createFlowLookup } from '../../src/nodes/flowLookup.ts'
import { engineRegistry, nodeCatalog } from '../../src/nodes/registry.ts'
import { testRegistry } from '../engine/testTypes.ts'
import { collect, flow, testContext } from './flowBuilders.ts'

/** The app's node types plus the engine tests' `wait`, `fail` and `hang`. */
export const nestedRegistry: NodeRegistry = new Map([...engineRegistry, ...testRegistry])

/** Makes `ids` the body of loop `loopId`. */
export function inBody(doc: FlowDocument, loopId: string, ...ids: string[]): FlowDocument {
  for (const node of doc.nodes) if (ids.includes(node.id)) node.parentId = loopId
  return doc
}

/** `leaf`: Input `topic` -> Template `[topic]` -> Output `text` (which echoes into its console). */
export const leaf = flow()
  .meta('leaf', 'Leaf')
  .node('in', 'input', { values: { topic: 'none' } })
  .node('t', 'template', { template: '[{{in.topic}}]' })
  .node('out', 'output', { values: { text: '{{t.text}}' } })
  .chain('in', 't', 'out')
  .build()

/** `looper`: Input `topic` -> loop `each` over x, y (body `fmt`: `topic-item`) -> Output `n`. */
export const looper = inBody(
  flow()
    .meta('looper', 'Looper')
    .node('in', 'input', { values: { topic: 'none' } })
    .node('each', 'loop', { items: '["x", "y"]', resultNode: 'fmt' })
    .node('fmt', 'template', { template: '{{in.topic}}-{{each.item}}' })
    .node('out', 'output', { values: { n: '{{each.count}}' } })
    .chain('in', 'each', 'out')
    .build(),
  'each',
  'fmt',
)

/** `failer`: a loop `each` over one item whose body node `f` fails (tests have no network), and the loop goes on. */
export const failer = inBody(
  flow()
    .meta('failer', 'Failer')
    .node('each', 'loop', { items: '["x"]', onItemError: 'continue' })
    .node('f', 'http', { url: 'http://127.0.0.1:9/{{each.item}}' })
    .node('out', 'output', { values: { n: '{{each.count}}' } })
    .edge('each', 'out')
    .build(),
  'each',
  'f',
)

/** A flow whose node `call` runs `target` with `topic` from its Input, then an Output. */
export function caller(id: string, target: string, field: string): FlowDocument {
  return flow()
    .meta(id, id)
    .node('q', 'input', { values: { topic: 'tea' } })
    .node('call', 'subflow', { flow: target, inputs: { topic: '{{q.topic}}' } }, 'Call')
    .node('out', 'output', { values: { result: `{{call.${field}}}` } })
    .chain('q', 'call', 'out')
    .build()
}

/** `main`: loop `outer` over a, b whose body node `call` runs `target` with the item as topic. */
export function loopCaller(target: string, resultNode = 'call'): FlowDocument {
  return inBody(
    flow()
      .meta('main', 'Main')
      .node('outer', 'loop', { items: '["a", "b"]', resultNode })
      .node('call', 'subflow', { flow: target, inputs: { topic: '{{outer.item}}' } }, 'Call')
      .node('out', 'output', { values: { n: '{{outer.count}}' } })
      .edge('outer', 'out')
      .build(),
    'outer',
    'call',
  )
}

/** A loop `outer` over a, b whose body is loop `inner` over 1, 2 with body `t`: `a1`, `a2`, … */
export const loopInLoop = inBody(
  inBody(
    flow()
      .meta('grid', 'Grid')
      .node('outer', 'loop', { items: '["a", "b"]', resultNode: 'inner' })
      .node('inner', 'loop', { items: '["1", "2"]', resultNode: 't' })
      .node('t', 'template', { template: '{{outer.item}}{{inner.item}}' })
      .node('out', 'output', { values: { n: '{{outer.count}}' } })
      .edge('outer', 'out')
      .build(),
    'outer',
    'inner',
  ),
  'inner',
  't',
)

/** Runs `doc` with `called` as the flows it may call and returns its events. */
export async function runNested(doc: FlowDocument, ...called: FlowDocument[]): Promise<RunEvent[]> {
  const { ctx } = testContext({ flows: createFlowLookup(called, nodeCatalog) })
  return collect(runFlow(doc, nestedRegistry, ctx))
}

/** A node event's place as compact text: `outer#1/call/each#0`. */
export function placeText(event: RunEvent): string {
  return (event.nesting ?? [])
    .map((s) => (s.kind === 'loop' ? `${s.nodeId}#${s.iteration ?? '?'}` : s.nodeId))
    .join('/')
}
