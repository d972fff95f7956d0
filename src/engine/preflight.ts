/**
 * Preflight: the live problems list. Structural problems (ids, types, edges, cycles) first, then
 * per node: config that does not parse, required settings left empty, and `{{refs}}` that point
 * at unknown nodes, at nodes that are not upstream, through refused names, or at output fields
 * the referenced node does not have.
 */
import type { FlowDocument } from './flow.ts'
import { ancestors, buildGraph, type FlowGraph } from './graph.ts'
import type { ConfigIssue, EngineNodeType, NodeRegistry } from './nodeType.ts'
import { nodeLabel, structuralProblems, toolNodes, type Problem } from './structure.ts'
import { missingSchemaField } from './schemaPath.ts'
import { extractRefs, formatRefPath, TOOL_ARGS_REF, type TemplateRef } from './templates.ts'
import type { FlowLookup } from './subflow.ts'
import { subflowProblems } from './subflowCheck.ts'

export { BLOCKING_CODES, isBlocking, nodeLabel, structuralProblems, toolNodes } from './structure.ts'
export type { Problem, ProblemSeverity, ToolNodes } from './structure.ts'

interface Parsed {
  type: EngineNodeType
  config: unknown
}

export interface PreflightOptions {
  /**
   * The flows `subflow` nodes may call (what the run will get as `RunContext.flows`). Given, a
   * missing called flow, a circle of calls and too deep a chain are errors, and references to a
   * `subflow` node's fields are checked against the called flow's Output keys; absent, those
   * checks are left to the run.
   */
  flows?: FlowLookup
}

/**
 * Every problem of `flow`, structural ones first, then node by node in document order.
 * Pure and fast enough to run on every edit of a few-hundred-node flow.
 */
export function preflight(
  flow: FlowDocument,
  registry: NodeRegistry,
  options: PreflightOptions = {},
): Problem[] {
  const problems = structuralProblems(flow, registry)
  const graph = buildGraph(flow)
  const parsed = new Map<string, Parsed>()
  for (const node of flow.nodes) {
    const type = registry.get(node.type)
    if (!type || !type.executable || parsed.has(node.id)) continue
    const result = type.parseConfig(node.data.config)
    if (!result.ok) {
      for (const issue of result.issues) {
        problems.push({
          code: 'INVALID_CONFIG',
          severity: 'error',
          nodeId: node.id,
          message: `${nodeLabel(flow, node.id)}: ${issue.path === '' ? 'the settings' : `"${issue.path}"`} ${lowerFirst(issue.message)}`,
          params: { ...issueParams(issue), nodeId: node.id, path: issue.path },
        })
      }
      continue
    }
    parsed.set(node.id, { type, config: result.value })
    for (const issue of type.check?.(result.value) ?? []) {
      problems.push({
        code: 'MISSING_CONFIG',
        severity: 'error',
        nodeId: node.id,
        message: `${nodeLabel(flow, node.id)}: ${issue.message}`,
        params: { ...issueParams(issue), nodeId: node.id, path: issue.path },
      })
    }
  }
  const known = new Set(flow.nodes.map((n) => n.id))
  const { targets } = toolNodes(flow, registry)
  for (const [nodeId, { type, config }] of parsed) {
    const scope: RefScope = { flow, graph, parsed, known, asTool: targets.has(nodeId), flows: options.flows }
    problems.push(...refProblems(scope, nodeId, type, config))
  }
  const { flows } = options
  if (flows) problems.push(...subflowProblems(flow, registry, flows, (doc) => preflight(doc, registry)))
  return problems
}

/**
 * A config issue's values for the problems list: the English text (`issue`), and the catalogue
 * key with its values (`issueKey`, the rest) so the UI can word it in the person's language.
 */
function issueParams(issue: ConfigIssue): Record<string, string | number> {
  const out: Record<string, string | number> = { ...issue.params, issue: issue.message }
  if (issue.key !== undefined) out['issueKey'] = issue.key
  return out
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

interface RefScope {
  flow: FlowDocument
  graph: FlowGraph
  parsed: ReadonlyMap<string, Parsed>
  known: ReadonlySet<string>
  /** The node is run as a tool, so `{{args.x}}` names its caller's arguments. */
  asTool: boolean
  flows?: FlowLookup
}

function refProblems(scope: RefScope, nodeId: string, type: EngineNodeType, config: unknown): Problem[] {
  const { flow, graph, parsed, known } = scope
  const refs: TemplateRef[] = []
  for (const text of type.templates?.(config) ?? []) refs.push(...extractRefs(text))
  if (refs.length === 0) return []
  const upstream = ancestors(graph, nodeId)
  // Inside a loop's body the enclosing loops (their item, index, previous) and what they see are
  // visible too; their fields are the iteration's scope, not their outputs.
  const enclosing = new Set<string>(type.container ? [nodeId] : [])
  for (let at = flow.nodes.find((n) => n.id === nodeId)?.parentId; at !== undefined && !enclosing.has(at);) {
    enclosing.add(at)
    for (const id of ancestors(graph, at)) upstream.add(id)
    at = flow.nodes.find((n) => n.id === at)?.parentId
  }
  const out: Problem[] = []
  const reported = new Set<string>()
  const who = nodeLabel(flow, nodeId)
  for (const ref of refs) {
    if (reported.has(ref.raw)) continue
    reported.add(ref.raw)
    if (
      scope.asTool &&
      ref.nodeId === TOOL_ARGS_REF &&
      !known.has(TOOL_ARGS_REF) &&
      ref.problem === undefined
    )
      continue
    const params = { nodeId, ref: ref.raw, target: ref.nodeId }
    // A fallback means the author planned for the value to be missing: tell, but do not block.
    const severity = ref.fallback === undefined ? 'error' : 'warning'
    if (ref.problem === 'forbidden-segment') {
      out.push({
        code: 'REF_FORBIDDEN_SEGMENT',
        severity: 'error',
        nodeId,
        message: `${who}: ${ref.raw} uses __proto__, prototype or constructor, which references may not name.`,
        params,
      })
    } else if (ref.problem === 'too-deep') {
      out.push({
        code: 'INVALID_CONFIG',
        severity: 'error',
        nodeId,
        message: `${who}: ${ref.raw} has too many path steps.`,
        params: { ...params, path: '' },
      })
    } else if (!known.has(ref.nodeId)) {
      out.push({
        code: 'REF_UNKNOWN_NODE',
        severity,
        nodeId,
        message: `${who}: ${ref.raw} names "${ref.nodeId}", but no node has that id.`,
        params,
      })
    } else if (enclosing.has(ref.nodeId)) {
      continue
    } else if (!upstream.has(ref.nodeId)) {
      out.push({
        code: 'REF_NOT_UPSTREAM',
        severity,
        nodeId,
        message: `${who}: ${ref.raw} reads ${nodeLabel(flow, ref.nodeId)}, which is not upstream. Connect it (directly or through other nodes) so it runs first.`,
        params,
      })
    } else {
      const target = parsed.get(ref.nodeId)
      const field = unknownField(target, ref, scope.flows)
      const miss = field === undefined ? schemaMiss(target, ref) : undefined
      if (miss !== undefined) {
        out.push({
          code: 'REF_NOT_IN_SCHEMA',
          severity,
          nodeId,
          message: `${who}: ${ref.raw} reads "${miss.field}", which the output schema of ${nodeLabel(flow, ref.nodeId)} does not have (it has ${miss.known.join(', ') || 'no fields'}).`,
          params: {
            ...params,
            field: miss.field,
            fields: miss.known.join(', '),
            path: formatRefPath(ref.nodeId, ref.path),
          },
        })
      } else if (field !== undefined) {
        out.push({
          code: 'REF_UNKNOWN_FIELD',
          severity: 'warning',
          nodeId,
          message: `${who}: ${ref.raw} reads "${field.name}", but ${nodeLabel(flow, ref.nodeId)} outputs ${field.known.join(', ') || 'nothing'}.`,
          params: {
            ...params,
            field: field.name,
            fields: field.known.join(', '),
            path: formatRefPath(ref.nodeId, ref.path),
          },
        })
      }
    }
  }
  return out
}

/** A reference into a field with a known schema (`data`) that names what the schema lacks. */
function schemaMiss(target: Parsed | undefined, ref: TemplateRef) {
  const first = ref.path[0]
  if (!target || typeof first !== 'string') return undefined
  const schema = target.type.fieldSchemas?.(target.config)?.[first]
  return schema === undefined ? undefined : missingSchemaField(schema, ref.path.slice(1))
}

function unknownField(
  target: Parsed | undefined,
  ref: TemplateRef,
  flows: FlowLookup | undefined,
): { name: string; known: readonly string[] } | undefined {
  const first = ref.path[0]
  if (!target || typeof first !== 'string') return undefined
  // A node that calls a flow outputs that flow's Output keys, known only through the lookup.
  const called = target.type.callsFlow?.(target.config)
  const known = called === undefined ? target.type.outputs(target.config) : flows?.get(called)?.outputKeys
  if (!known || known.includes(first)) return undefined
  return { name: first, known }
}
