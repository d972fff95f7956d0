/**
 * One preflight problem in the UI's language: the problems list and a refused run's banner word
 * it the same way. The catalogue entry is `issues:problem.<code>`; a config issue inside it has its
 * own key (`issueKey`); the English `message` is the fallback for a code without an entry.
 */
import type { Problem } from '../../engine/index.ts'
import { issueText, type Translate } from '../kit/issueText.ts'

function problemKey(problem: Problem): string {
  if (problem.code === 'DANGLING_EDGE' && problem.severity === 'warning')
    return 'issues:problem.DANGLING_EDGE_inert'
  return `issues:problem.${problem.code}`
}

/** `label` names a node for the person: `"Summarise" (llm_1)`, or `"llm_1"` when unnamed. */
export function problemText(
  problem: Problem,
  t: Translate,
  label: (nodeId: string) => string | undefined,
): string {
  const nodeId = problem.nodeId ?? ''
  const name = label(nodeId)
  const node = name && name !== nodeId ? `"${name}" (${nodeId})` : `"${nodeId}"`
  const values: Record<string, string | number> = { ...problem.params }
  const { issueKey, issue } = problem.params
  if (typeof issueKey === 'string')
    values['issue'] = issueText(t, issueKey, problem.params, String(issue ?? ''))
  return t(problemKey(problem), { ...values, node, defaultValue: problem.message })
}
