/**
 * PatchCat `knowledge` -> `knowledge` (contract "PatchCat mapping"): `knowledgeBaseId` becomes
 * `base`, `topK` stays, `scoreThreshold` becomes `minScore`. A file never carries a base's
 * documents, so the import says which base to add, and where, before the flow can run.
 */
import { KNOWLEDGE_MIN_SCORE_RANGE, KNOWLEDGE_TOP_K_RANGE } from '../defaults.ts'
import { keyedNote, type FlowMapped, type ImportNotes } from './patchcatFlow.ts'
import type { PatchCatData } from './patchcatNodes.ts'

export function mapKnowledge(d: PatchCatData, into: ImportNotes): FlowMapped {
  const base = (d.text('knowledgeBaseId', ['config']) ?? d.text('knowledgeBase', ['config']) ?? '').trim()
  const name = d.text('knowledgeBaseName', ['config'])
  const config: Record<string, unknown> = { base, query: d.text('query') ?? '' }
  const topK = d.number('topK', KNOWLEDGE_TOP_K_RANGE)
  if (topK !== undefined) config.topK = topK
  const minScore = d.number('scoreThreshold', KNOWLEDGE_MIN_SCORE_RANGE, 'scoreThreshold', false)
  if (minScore !== undefined) config.minScore = minScore
  const shown = name === undefined || name === '' ? base : `${base} (${name})`
  if (base === '') {
    keyedNote(
      into,
      `${d.nodeId}: PatchCat named no knowledge base; name one in the node.`,
      'knowledgeNoBase',
      {
        node: d.nodeId,
      },
    )
  } else {
    keyedNote(
      into,
      `${d.nodeId}: searches knowledge base "${shown}", whose documents a file never carries: before running, add a base with the id "${base}" on the Knowledge screen (CLI: --knowledge ${base}=<folder or file>).`,
      'knowledgeAddBase',
      { node: d.nodeId, base, name: shown },
    )
  }
  return { config }
}
