/**
 * Reciprocal-rank fusion (Cormack, Clarke and Buettcher 2009): each list gives a chunk
 * 1 / (k + rank), and the sums order the chunks. Ranks, not raw scores, are fused, because BM25
 * and cosine scores are on scales that do not compare. The score a result reports is the mean
 * of its normalised scores over the lists (0 where a list did not find it), so `minScore` reads
 * as "how well it matched", in [0, 1], whatever the fusion order.
 */
import { KNOWLEDGE_RRF_K } from '../defaults.ts'
import type { RankedHit } from './keyword.ts'

export interface FusedHit extends RankedHit {
  /** The fusion sum that ordered it. */
  rrf: number
}

export function fuseRanks(lists: ReadonlyArray<readonly RankedHit[]>, k = KNOWLEDGE_RRF_K): FusedHit[] {
  const byId = new Map<string, { rrf: number; scoreSum: number; firstSeen: number }>()
  let seen = 0
  for (const list of lists) {
    list.forEach((hit, index) => {
      const entry = byId.get(hit.id) ?? { rrf: 0, scoreSum: 0, firstSeen: seen++ }
      entry.rrf += 1 / (k + index + 1)
      entry.scoreSum += hit.score
      byId.set(hit.id, entry)
    })
  }
  const count = Math.max(1, lists.length)
  return [...byId.entries()]
    .map(([id, entry]) => ({ id, rrf: entry.rrf, score: entry.scoreSum / count, firstSeen: entry.firstSeen }))
    .sort((a, b) => b.rrf - a.rrf || b.score - a.score || a.firstSeen - b.firstSeen)
    .map(({ id, rrf, score }) => ({ id, rrf, score }))
}
