/**
 * The badge a node's header shows for its most severe guard alert of the run: the catalogue key
 * (the app words it in the person's language) and the English wording the CLI-free default uses.
 */
import type { GuardLayer, GuardLevel, LoopDetector } from '../engine/index.ts'

/** The guard alert a node's badge shows: the most severe one of the run. */
export interface NodeAlert {
  layer: GuardLayer
  level: GuardLevel
  detector?: LoopDetector
}

/** Turns a guard alert into badge text; the app passes a translated one. */
export type BadgeLabeller = (alert: NodeAlert) => string

/** Loop detectors that are not about tool calls, so their badge says what they saw instead. */
const OWN_BADGE: ReadonlySet<LoopDetector> = new Set(['content', 'empty', 'monologue'])

/** The run catalogue's key for a badge: `badge.<layer>.<level>`, or `badge.<detector>.<level>`. */
export function badgeKey(alert: NodeAlert): string {
  const own = alert.layer === 'loop' && alert.detector !== undefined && OWN_BADGE.has(alert.detector)
  return `badge.${own ? alert.detector : alert.layer}.${alert.level}`
}

const ENGLISH_OWN_BADGES: Record<string, string> = {
  'badge.content.hint': 'Repeating itself',
  'badge.content.trip': 'Repetitive text stopped',
  'badge.empty.hint': 'Empty replies',
  'badge.empty.trip': 'Empty replies stopped',
  'badge.monologue.hint': 'No tool calls',
  'badge.monologue.trip': 'Monologue stopped',
}

export const englishBadge: BadgeLabeller = (alert) => {
  const own = ENGLISH_OWN_BADGES[badgeKey(alert)]
  if (own !== undefined) return own
  if (alert.layer === 'loop')
    return alert.level === 'trip' ? 'Deadlock breaker tripped' : 'Repeated tool call'
  if (alert.layer === 'budget') return 'Budget stop'
  if (alert.layer === 'iterations') return 'Max iterations'
  return alert.level === 'trip' ? 'Watchdog stop' : 'Watchdog warning'
}
