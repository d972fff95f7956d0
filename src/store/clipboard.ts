/**
 * The clipboard format: plain JSON text, so copy/paste works between flows, tabs and windows
 * through the system clipboard. Parsing is strict (zod): anything else on the clipboard is
 * simply not a Wardflow paste.
 */
import { z } from '../zodMini.ts'
import type { FlowEdge, FlowNode } from '../engine/index.ts'

export const CLIPBOARD_FORMAT = 'wardflow.clipboard'
export const CLIPBOARD_VERSION = 1

export interface ClipboardPayload {
  format: typeof CLIPBOARD_FORMAT
  version: typeof CLIPBOARD_VERSION
  nodes: FlowNode[]
  edges: FlowEdge[]
}

const xy = z.object({ x: z.number(), y: z.number() })

const nodeSchema = z.object({
  id: z.string().check(z.minLength(1)),
  type: z.string().check(z.minLength(1)),
  position: xy,
  data: z.object({ label: z.string(), config: z.record(z.string(), z.unknown()) }),
  size: z.optional(
    z.object({ width: z.number().check(z.positive()), height: z.number().check(z.positive()) }),
  ),
})

const edgeSchema = z.object({
  id: z.string().check(z.minLength(1)),
  source: z.string().check(z.minLength(1)),
  target: z.string().check(z.minLength(1)),
  sourceHandle: z.nullish(z.string()),
  targetHandle: z.nullish(z.string()),
})

const payloadSchema = z.object({
  format: z.literal(CLIPBOARD_FORMAT),
  version: z.literal(CLIPBOARD_VERSION),
  nodes: z.array(nodeSchema),
  edges: z.array(edgeSchema),
})

/** The selected nodes and the edges between them, as clipboard text. */
export function serializeClipboard(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  ids: ReadonlySet<string>,
): string | null {
  const picked = nodes.filter((n) => ids.has(n.id))
  if (picked.length === 0) return null
  const payload: ClipboardPayload = {
    format: CLIPBOARD_FORMAT,
    version: CLIPBOARD_VERSION,
    nodes: picked,
    edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  }
  return JSON.stringify(payload)
}

/** Null when the text is not a Wardflow clipboard payload. */
export function parseClipboard(text: string): ClipboardPayload | null {
  if (!text.includes(CLIPBOARD_FORMAT)) return null
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = payloadSchema.safeParse(raw)
  if (!parsed.success) return null
  const nodes: FlowNode[] = parsed.data.nodes.map((n) => {
    const node: FlowNode = { id: n.id, type: n.type, position: n.position, data: n.data }
    if (n.size) node.size = n.size
    return node
  })
  const edges: FlowEdge[] = parsed.data.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    sourceHandle: e.sourceHandle ?? null,
    targetHandle: e.targetHandle ?? null,
  }))
  return { format: CLIPBOARD_FORMAT, version: CLIPBOARD_VERSION, nodes, edges }
}
