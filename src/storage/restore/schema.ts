/**
 * zod schemas of the flow document's structure (current shape). Node configs are only checked
 * to be objects here; their content is validated by each node type's own schema (nodes.ts).
 */
import { z } from '../../zodMini.ts'
import { formatPath } from '../../nodes/types.ts'
import { zodIssueText } from '../../issueText.ts'

/** One thing wrong with an imported or stored document, at a JSON path like `nodes[2].data.config.temperature`. */
export interface ImportProblem {
  path: string
  /** Plain English (the CLI prints it). */
  message: string
  /** The UI's catalogue key for the message (`issues:importProblem.*`, `issues:validation.*`) and its values. */
  key?: string
  params?: Record<string, string | number>
}

/**
 * The catalogue key of a note beside its English text (notes stay English for the CLI): the UI
 * words a note whose text matches `text` through `key` and `params`.
 */
export interface KeyedNote {
  text: string
  key: string
  params?: Record<string, string | number>
}

export const EPOCH_ISO = new Date(0).toISOString()

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const configObject = z.custom<Record<string, unknown>>(isPlainObject, {
  message: 'Expected an object (the node settings).',
})

export const xySchema = z.object({ x: z.number(), y: z.number() })

export const viewportSchema = z.object({ x: z.number(), y: z.number(), zoom: z.number().check(z.positive()) })

export const nodeSchema = z.object({
  id: z.string(),
  type: z.string().check(z.minLength(1, 'A node needs a type.')),
  position: xySchema,
  data: z.object({ label: z._default(z.string(), ''), config: z._default(configObject, () => ({})) }),
  size: z.optional(
    z.object({ width: z.number().check(z.positive()), height: z.number().check(z.positive()) }),
  ),
  /** The container (a `loop`) whose body the node is in; bodies.ts checks it names one. */
  parentId: z.optional(z.string().check(z.minLength(1, 'A parentId names a node.'))),
  /** An output pinned in place of running the node (docs/workflow-format.md, "Pinned outputs"). */
  pinned: z.optional(
    z.object({
      output: z.custom<Record<string, unknown>>(isPlainObject, {
        message: 'A pinned output is an object (the node output fields).',
      }),
      notTaken: z.optional(z.array(z.string())),
    }),
  ),
})

export const edgeSchema = z.object({
  id: z.string().check(z.minLength(1, 'An edge needs an id.')),
  source: z.string(),
  target: z.string(),
  sourceHandle: z.optional(z.nullable(z.string())),
  targetHandle: z.optional(z.nullable(z.string())),
})

export const metadataSchema = z.object({
  id: z.string().check(z.minLength(1, 'The flow needs an id.')),
  name: z.string(),
  description: z._default(z.string(), ''),
  tags: z._default(z.array(z.string()), []),
  createdAt: z._default(z.string(), EPOCH_ISO),
  updatedAt: z._default(z.string(), EPOCH_ISO),
  /** Full runs reuse unchanged results (off by default). */
  reuseUnchanged: z.optional(z.boolean()),
  /** The past run this flow was forked from (a fork's first runs reuse it). */
  forkOf: z.optional(z.object({ flowId: z.string(), runId: z.string() })),
  /** Whole-run limits (0 = none): tokens, US dollars. */
  limits: z.optional(
    z.object({
      maxRunTokens: z.optional(z.number().check(z.gte(0))),
      maxRunCostUsd: z.optional(z.number().check(z.gte(0))),
    }),
  ),
})

export const documentSchema = z.object({
  metadata: metadataSchema,
  viewport: z._default(viewportSchema, { x: 0, y: 0, zoom: 1 }),
  nodes: z.array(z.unknown()),
  edges: z._default(z.array(z.unknown()), []),
})

/** Turns zod issues into problems under `prefix` (e.g. `nodes[3]`). */
export function zodProblems(error: z.core.$ZodError, prefix = ''): ImportProblem[] {
  return error.issues.map((issue) => ({
    path: joinPath(prefix, formatPath(issue.path)),
    message: issue.message,
    ...zodIssueText(issue),
  }))
}

/** Joins JSON path parts: `joinPath('nodes[0].data.config', 'tools[1].name')`. */
export function joinPath(prefix: string, rest: string): string {
  if (rest === '') return prefix
  if (prefix === '') return rest
  return rest.startsWith('[') ? `${prefix}${rest}` : `${prefix}.${rest}`
}

/** Iteratively measures how deep a parsed JSON value nests (recursion could overflow on hostile input). */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (typeof current !== 'object' || current === null) continue
    if (depth > max) max = depth
    if (max > limit) return max
    for (const child of Object.values(current))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
  }
  return max
}
