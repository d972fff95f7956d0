/** The flow document: what the canvas edits, storage keeps and the engine runs. */
import type { PinnedOutput } from './reuse.ts'

export interface XY {
  x: number
  y: number
}

export interface Viewport {
  x: number
  y: number
  zoom: number
}

/**
 * One node of a flow. `config` is validated by the node type's schema at every boundary
 * (import, load, run), so inside the engine it is `unknown` until a node definition parses it.
 */
export interface FlowNode {
  id: string
  type: string
  position: XY
  data: {
    label: string
    config: Record<string, unknown>
  }
  /** Width/height of sticky notes and other resizable nodes. */
  size?: { width: number; height: number }
  /** The `loop` whose body this node is in (flow-control.md, `loop`); absent: the canvas itself. */
  parentId?: string
  /**
   * An output pinned by the person (docs/workflow-format.md, "Pinned outputs"): the node is not
   * run, in the browser or the CLI; this output is used instead.
   */
  pinned?: PinnedOutput
}

export interface FlowEdge {
  id: string
  source: string
  target: string
  sourceHandle?: string | null
  targetHandle?: string | null
}

export interface FlowMetadata {
  id: string
  name: string
  description: string
  tags: string[]
  /** ISO-8601 */
  createdAt: string
  /** ISO-8601 */
  updatedAt: string
  /** Full runs reuse a node's earlier result when its type, config and inputs are unchanged. */
  reuseUnchanged?: boolean
  /**
   * The past run this flow was forked from (issue 19): until the flow has a run of its own, its
   * runs reuse that run's results for the nodes unchanged since, and record it as their parent.
   */
  forkOf?: { flowId: string; runId: string }
  /** Whole-run limits of this flow (flow-control.md): they win over the settings' defaults. */
  limits?: { maxRunTokens?: number; maxRunCostUsd?: number }
}

export interface FlowDocument {
  metadata: FlowMetadata
  viewport: Viewport
  nodes: FlowNode[]
  edges: FlowEdge[]
}

/** The type of placeholder nodes that keep an imported node Wardflow cannot run. */
export const UNSUPPORTED_TYPE = 'unsupported'
