/**
 * Why a flow cannot run, in words a person understands: the preflight problems that block a run
 * (cycles, nodes Wardflow cannot run, settings that are not valid, broken references), turned
 * into one error-banner message. Nodes that cannot run are always named, in a list of their own.
 */
import { RUN_REFUSAL_MAX_LISTED } from '../../defaults.ts'
import {
  nodeLabel,
  preflight,
  type FlowDocument,
  type FlowLookup,
  type NodeRegistry,
  type Problem,
} from '../../engine/index.ts'
import type { BannerError } from '../../store/noticeStore.ts'
import { problemText } from '../../ui/problems/problemText.ts'

/** Looks up a catalogue entry (`issues:runRefused.*`, `issues:problem.*`). */
export type Translate = (key: string, values?: Record<string, string | number>) => string

/** The banner code of a refused run. */
export const RUN_REFUSED_CODE = 'RUN_REFUSED'

/** Problems that stop a run: every error (warnings are shown in the problems list only). */
export function blockingProblems(flow: FlowDocument, registry: NodeRegistry, flows?: FlowLookup): Problem[] {
  return preflight(flow, registry, { flows }).filter((p) => p.severity === 'error')
}

function unsupportedEntry(flow: FlowDocument, problem: Problem, t: Translate): string {
  const nodeId = problem.nodeId ?? ''
  const type = String(problem.params['originalType'] ?? problem.params['type'] ?? '?')
  return t('issues:runRefused.unsupportedItem', { node: nodeLabel(flow, nodeId), type })
}

function describe(flow: FlowDocument, problem: Problem, t: Translate): string {
  if (problem.code === 'CYCLE')
    return t('issues:runRefused.cycle', { cycle: String(problem.params['cycle'] ?? '') })
  const labels = new Map(flow.nodes.map((n) => [n.id, n.data.label]))
  return problemText(problem, t, (id) => labels.get(id))
}

/**
 * The banner for a flow that must not run, or undefined when it may. The unsupported nodes come
 * first, all of them; other problems follow, at most RUN_REFUSAL_MAX_LISTED.
 */
export function runRefusal(
  flow: FlowDocument,
  registry: NodeRegistry,
  t: Translate,
  flows?: FlowLookup,
): BannerError | undefined {
  const problems = blockingProblems(flow, registry, flows)
  if (problems.length === 0) return undefined
  const unsupported = problems.filter((p) => p.code === 'UNSUPPORTED_NODE' || p.code === 'UNKNOWN_NODE_TYPE')
  const others = problems.filter((p) => !unsupported.includes(p))
  const parts: string[] = []
  if (unsupported.length > 0) {
    parts.push(
      t('issues:runRefused.unsupported', {
        count: unsupported.length,
        list: unsupported.map((p) => unsupportedEntry(flow, p, t)).join('; '),
      }),
    )
  }
  if (others.length > 0) {
    const listed = others.slice(0, RUN_REFUSAL_MAX_LISTED).map((p) => describe(flow, p, t))
    const more = others.length - listed.length
    parts.push(
      t(unsupported.length > 0 ? 'issues:runRefused.alsoProblems' : 'issues:runRefused.problems', {
        count: others.length,
      }) +
        ' ' +
        listed.join(' ') +
        (more > 0 ? ` ${t('issues:runRefused.more', { count: more })}` : ''),
    )
  }
  const message = `${t('issues:runRefused.title')} ${parts.join(' ')}`
  return {
    code: RUN_REFUSED_CODE,
    message,
    details: {
      count: problems.length,
      unsupported: unsupported.map((p) => p.nodeId ?? '').join(', '),
    },
  }
}
