/**
 * Reused outputs: the debugging loop's part of the engine (issue 19). A run may be given outputs
 * for some nodes (pinned in the file, kept from an earlier run, or found unchanged by cache key);
 * those nodes are not executed: each emits one `nodeFinish` with `cached` set, no usage and 0 ms,
 * when its upstream nodes have settled, so not-taken branches and joins behave as in a real run.
 *
 * `planFromHere` decides which nodes a "run from here" / "run this node" starts; `CacheKeys`
 * computes the keys that let a later run reuse a node whose type, config and inputs are unchanged.
 */
import { canonicalJson } from './agent/canonicalJson.ts'
import type { FlowDocument, FlowNode } from './flow.ts'
import { descendants, type FlowGraph } from './graph.ts'
import type { EngineNodeType } from './nodeType.ts'

/** Why a node was not run: pinned in the file, reused from a run, or found unchanged by key. */
export type CachedReason = 'pinned' | 'reused' | 'unchanged'

/** The `cached` field of a reused node's `nodeFinish`. */
export interface NodeCached {
  reason: CachedReason
  /** The run the output came from (absent for a pin). */
  fromRunId?: string
}

/** An output given to a run instead of running its node. */
export interface ReusedOutput {
  output: Record<string, unknown>
  /** The output ports it did not take (a condition's other cases), as its run recorded them. */
  notTaken?: readonly string[]
  reason: CachedReason
  fromRunId?: string
}

/** A node's output pinned in the flow file (`FlowNode.pinned`): the node is never run. */
export interface PinnedOutput {
  output: Record<string, unknown>
  notTaken?: string[]
}

/** Finds outputs of earlier runs by cache key (see CacheKeys). */
export interface ResultCache {
  lookup(key: string): ReusedOutput | undefined
  /** Also reuse nodes whose results vary with the same inputs (models at temperature > 0). */
  includeVarying?: boolean
}

/** What a run may be given besides its flow and context. */
export interface RunOptions {
  /** Outputs to use instead of running these nodes (pins in the flow are added by runFlow). */
  reuse?: ReadonlyMap<string, ReusedOutput>
  /**
   * When set, only these nodes (and the reused ones) take part: every other node is skipped with
   * `reason: 'notRequested'` ("run this node" leaves its descendants alone).
   */
  only?: ReadonlySet<string>
  /** Reuse unchanged results, and put `cacheKey` on every `nodeFinish`. */
  cache?: ResultCache
  /** The node a person asked to run ("run from here", "run this node"): it runs even when pinned. */
  target?: string
}

/** The outputs pinned in `flow`'s nodes, as reuse entries. */
export function pinnedReuse(flow: Pick<FlowDocument, 'nodes'>): Map<string, ReusedOutput> {
  const out = new Map<string, ReusedOutput>()
  for (const node of flow.nodes) {
    if (!node.pinned || node.parentId !== undefined) continue
    out.set(node.id, {
      output: node.pinned.output,
      ...(node.pinned.notTaken?.length ? { notTaken: node.pinned.notTaken } : {}),
      reason: 'pinned',
    })
  }
  return out
}

/** A node's result in an earlier run, as its record kept it. */
export interface PreviousResult {
  output: Record<string, unknown>
  notTaken?: readonly string[]
}

/** The outputs of the run a "run from here" starts from. */
export interface PreviousRun {
  runId: string
  results: ReadonlyMap<string, PreviousResult>
}

export type FromHereMode = 'fromHere' | 'node'

export interface FromHerePlan extends RunOptions {
  reuse: Map<string, ReusedOutput>
  only?: Set<string>
  /** The node the run starts from (a body node's loop, since bodies run inside their loop). */
  target: string
}

/** The node on the canvas itself that holds `id` (a body node's outermost loop). */
export function topLevelOf(flow: Pick<FlowDocument, 'nodes'>, id: string): string {
  const byId = new Map<string, FlowNode>(flow.nodes.map((n) => [n.id, n]))
  let current = byId.get(id)
  const seen = new Set<string>()
  while (current?.parentId !== undefined && !seen.has(current.id)) {
    seen.add(current.id)
    const parent = byId.get(current.parentId)
    if (!parent) break
    current = parent
  }
  return current?.id ?? id
}

/**
 * Which outputs a run from `target` reuses. `fromHere`: the target and everything below it run,
 * every other node with a result in `previous` is reused (a node without one runs, so the run
 * has the inputs it needs). `node`: the same upstream, but only the target runs; what depends on
 * it is left alone (skipped as not requested). `graph` is the run plan's (executable top-level
 * nodes only).
 */
export function planFromHere(
  flow: Pick<FlowDocument, 'nodes'>,
  graph: FlowGraph,
  targetId: string,
  previous: PreviousRun,
  mode: FromHereMode,
): FromHerePlan {
  const target = topLevelOf(flow, targetId)
  const below = descendants(graph, target)
  const reuse = new Map<string, ReusedOutput>()
  const rerun = new Set<string>([target])
  for (const id of graph.ids) {
    if (id === target || below.has(id)) continue
    const result = previous.results.get(id)
    if (!result) {
      rerun.add(id)
      continue
    }
    reuse.set(id, {
      output: result.output,
      ...(result.notTaken?.length ? { notTaken: result.notTaken } : {}),
      reason: 'reused',
      fromRunId: previous.runId,
    })
  }
  if (mode === 'fromHere') return { reuse, target }
  // Upstream nodes that had no result run too (the target needs them); nothing below does.
  const only = new Set([...rerun].filter((id) => id === target || !below.has(id)))
  return { reuse, only, target }
}

const SEED_A = 0x9e3779b1
const SEED_B = 0x85ebca6b

/** cyrb53: a fast 53-bit string hash (two seeds give the key ~106 bits). Not cryptographic. */
function hash53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** The canonical JSON text of a value (keys sorted, strings NFC), or its plain JSON when odd. */
export function canonicalText(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null'
  return canonicalJson(json)?.text ?? json
}

function digest(value: unknown): string {
  const text = canonicalText(value)
  return `${hash53(text, SEED_A)}.${hash53(text, SEED_B)}`
}

/**
 * Cache keys of one run. A node's key covers its type, its config and, for each direct upstream
 * node, that node's key and a digest of its output; so any change above a node (an output, a
 * config) changes its key and its descendants' keys, and nothing else's.
 */
export class CacheKeys {
  private readonly keys = new Map<string, string>()
  private readonly outputs = new Map<string, string>()

  /** Records `id`'s output once it settled; returns the key it ran under. */
  settle(id: string, output: Record<string, unknown>): void {
    this.outputs.set(id, digest(output))
  }

  key(node: FlowNode, parents: readonly string[]): string {
    let key = this.keys.get(node.id)
    if (key !== undefined) return key
    const inputs = parents.map((p) => [p, this.keys.get(p) ?? '', this.outputs.get(p) ?? ''])
    key = digest({ type: node.type, config: node.data.config, inputs })
    this.keys.set(node.id, key)
    return key
  }
}

/** True when the cache may reuse a node of `type` with `config` (see ResultCache.includeVarying). */
export function reusableByKey(type: EngineNodeType, config: unknown, cache: ResultCache): boolean {
  if (cache.includeVarying || !type.varies) return true
  const parsed = type.parseConfig(config)
  return parsed.ok && !type.varies(parsed.value)
}
