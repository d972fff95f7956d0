/** The knowledge node's run, loaded on the first run of a knowledge node. */
import { KNOWLEDGE_RESULT_CHUNK_MAX_CHARS } from '../../defaults.ts'
import { FlowError, type KnowledgeHit, type NodeExecution, type NodeResult } from '../../engine/index.ts'
import type { KnowledgeConfig } from './schema.ts'

/** Scores as the console and the citation block show them. */
function shown(score: number): string {
  return score.toFixed(2)
}

/**
 * The results as one block a prompt can quote: each chunk numbered, with its source and score,
 * so a model can cite `[2]` and a person can find where it came from.
 */
export function citationBlock(hits: readonly KnowledgeHit[]): string {
  return hits
    .map((hit, i) => {
      const text =
        hit.text.length > KNOWLEDGE_RESULT_CHUNK_MAX_CHARS
          ? `${hit.text.slice(0, KNOWLEDGE_RESULT_CHUNK_MAX_CHARS)}…`
          : hit.text
      return `[${i + 1}] ${hit.source} (score ${shown(hit.score)})\n${text}`
    })
    .join('\n\n')
}

export async function executeKnowledge({
  node,
  config,
  ctx,
  signal,
  resolve,
  emit,
}: NodeExecution<KnowledgeConfig>): Promise<NodeResult> {
  const base = config.base.trim()
  if (ctx.knowledge === undefined) {
    throw new FlowError(
      'KNOWLEDGE_BASE_MISSING',
      `Knowledge base "${base}" is not available here. In the browser add it on the Knowledge screen; in the CLI give it with --knowledge ${base}=<folder or file>.`,
      { nodeId: node.id, details: { base } },
    )
  }
  const query = resolve(config.query, 'query')
  const hits = await ctx.knowledge.search({
    base,
    query,
    topK: config.topK,
    minScore: config.minScore,
    nodeId: node.id,
    signal,
  })
  const results = hits.map(({ text, source, score }) => ({ text, source, score }))
  emit.chunk(
    results.length === 0
      ? '∅'
      : results.map((hit, i) => `[${i + 1}] ${hit.source} · ${shown(hit.score)}\n${hit.text}`).join('\n\n'),
    'output',
  )
  return { output: { results, result: citationBlock(results) } }
}
