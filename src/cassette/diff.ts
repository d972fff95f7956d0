/**
 * What `wardflow test` reports: every place where a replayed run's status, outputs and guard
 * events differ from the recorded ones, one line each (`outputs.answer: recorded "…", now "…"`).
 */
import type { RunExpectation } from './format.ts'
import { canonicalJson, shorten } from './key.ts'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/** Every leaf where `recorded` and `now` differ, in path order. */
function differences(recorded: unknown, now: unknown, path: string, out: string[] = []): string[] {
  if (canonicalJson(recorded) === canonicalJson(now)) return out
  if (isObject(recorded) && isObject(now) && Array.isArray(recorded) === Array.isArray(now)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(now)])]
    if (Array.isArray(recorded)) keys.sort((a, b) => Number(a) - Number(b))
    else keys.sort()
    for (const key of keys) {
      const where = Array.isArray(recorded) ? `${path}[${key}]` : `${path}.${key}`
      differences(recorded[key], now[key], where, out)
    }
    return out
  }
  out.push(`${path}: recorded ${shorten(recorded)}, now ${shorten(now)}`)
  return out
}

/** The differences of a replay from its recording: status, outputs, guard events. */
export function expectationDifferences(recorded: RunExpectation, now: RunExpectation): string[] {
  const out: string[] = []
  differences(recorded.status, now.status, 'status', out)
  differences(recorded.outputs, now.outputs, 'outputs', out)
  if (recorded.guards.length !== now.guards.length)
    out.push(`guards: recorded ${recorded.guards.length} guard events, now ${now.guards.length}`)
  differences(recorded.guards, now.guards, 'guards', out)
  return out
}
