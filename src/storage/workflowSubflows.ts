/**
 * The flows a workflow file carries (`"subflows"`, format version 2): each is a flow document
 * (`metadata` with its `id`, `nodes`, `edges`; the rest filled in as for the main flow), read
 * with the same checks, its problems reported under `subflows[i]`.
 */
import type { FlowDocument } from '../engine/index.ts'
import { fillOmitted } from './restore/omitted.ts'
import { isPlainObject, restoreDocument, type ImportProblem, type NodeLookup } from './restore/index.ts'

export type SubflowsResult =
  { ok: true; subflows: FlowDocument[]; notes: string[] } | { ok: false; problems: ImportProblem[] }

/** Reads `file.subflows` (absent: none). A carried flow must name its id: calls refer to it. */
export function parseSubflows(file: Record<string, unknown>, lookup?: NodeLookup): SubflowsResult {
  const raw = file['subflows']
  if (raw === undefined) return { ok: true, subflows: [], notes: [] }
  if (!Array.isArray(raw)) {
    return {
      ok: false,
      problems: [
        {
          path: 'subflows',
          message: '"subflows" must be a list of flows.',
          key: 'issues:importProblem.subflowsNotList',
        },
      ],
    }
  }
  const problems: ImportProblem[] = []
  const subflows: FlowDocument[] = []
  const notes: string[] = []
  const seen = new Set<string>()
  raw.forEach((item: unknown, index) => {
    const at = `subflows[${index}]`
    const id = isPlainObject(item) && isPlainObject(item['metadata']) ? item['metadata']['id'] : undefined
    if (typeof id !== 'string' || id === '') {
      problems.push({
        path: `${at}.metadata.id`,
        message: 'A carried sub-flow needs its "metadata.id": the nodes that call it name it.',
        key: 'issues:importProblem.subflowId',
      })
      return
    }
    if (seen.has(id)) {
      problems.push({
        path: `${at}.metadata.id`,
        message: `Two carried sub-flows have the id "${id}".`,
        key: 'issues:importProblem.subflowDuplicate',
        params: { id },
      })
      return
    }
    seen.add(id)
    const filled = fillOmitted(item as Record<string, unknown>)
    const restored = restoreDocument(filled.file, { mode: 'strict', lookup, pathPrefix: at })
    if (!restored.ok) problems.push(...restored.problems)
    else {
      subflows.push(restored.doc)
      notes.push(...restored.notes.map((note) => `Sub-flow "${id}": ${note}`))
    }
  })
  return problems.length > 0 ? { ok: false, problems } : { ok: true, subflows, notes }
}
