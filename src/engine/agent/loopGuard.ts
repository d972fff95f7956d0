/**
 * Layer 2 of the agent guard (docs/guard.md): decides, before each tool call runs, whether it
 * runs, runs with a hint, or trips the deadlock breaker. Pure bookkeeping over call signatures
 * and results; it knows nothing of providers or the UI.
 *
 * Everything is tracked incrementally, so a check costs O(maxCyclePeriod) string comparisons and
 * the history kept is only the last `maxCyclePeriod` calls, however long the run.
 */
import {
  LOOP_CYCLE_DETECTION,
  LOOP_DETECTION_ENABLED,
  LOOP_HINT_AT,
  LOOP_MAX_CYCLE_PERIOD,
  LOOP_MAX_IDENTICAL_CALLS,
  LOOP_PROGRESS_AWARE,
  LOOP_TRIP_AT,
} from '../../defaults.ts'
import { FlowError } from '../errors.ts'
import { cycleHintMessage, cycleTripMessage, repeatHintMessage, repeatTripMessage } from './messages.ts'
import { canonicalToolSignature } from './signature.ts'

export interface LoopGuardConfig {
  enabled: boolean
  /** Count (or cycle lap) at which the model gets a hint, once per streak or cycle. */
  hintAt: number
  /** Count (or cycle lap) at which the call is refused and the loop ends. */
  tripAt: number
  /** Only identical calls whose result did not change count toward a trip. */
  progressAware: boolean
  cycleDetection: boolean
  /** Longest cycle looked for; cycles have 2..maxCyclePeriod calls per lap. */
  maxCyclePeriod: number
  /** A streak of identical calls runs at most this many; the next one trips even with progress. */
  maxIdenticalCalls: number
}

/** A tool call as the guard sees it: the name and the raw argument string. */
export interface GuardCall {
  name: string
  args: string
}

export type GuardDecision =
  | { action: 'run' }
  | { action: 'hint'; detector: 'repeat' | 'cycle'; count: number; message: string }
  | { action: 'trip'; detector: 'repeat' | 'cycle'; count: number; message: string }

export interface LoopGuard {
  /** Register a call the model asked for, before it runs. */
  check(call: GuardCall): GuardDecision
  /**
   * Report what a call that ran returned. Tripped calls are never recorded. Returns true when
   * the cycle hint the last check gave is withdrawn: this call's result differs from the same
   * position's result one lap back, so the cycle made progress (progress-aware mode only).
   */
  record(call: GuardCall, observation: string): boolean
}

/** The defaults of every guard setting, from src/defaults.ts. */
export function defaultLoopGuardConfig(): LoopGuardConfig {
  return {
    enabled: LOOP_DETECTION_ENABLED,
    hintAt: LOOP_HINT_AT,
    tripAt: LOOP_TRIP_AT,
    progressAware: LOOP_PROGRESS_AWARE,
    cycleDetection: LOOP_CYCLE_DETECTION,
    maxCyclePeriod: LOOP_MAX_CYCLE_PERIOD,
    maxIdenticalCalls: LOOP_MAX_IDENTICAL_CALLS,
  }
}

interface Entry {
  name: string
  signature: string
  observation: string
}

const RUN: GuardDecision = { action: 'run' }

function assertSetting(name: keyof LoopGuardConfig, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new FlowError(
      'INVALID_CONFIG',
      `Loop guard setting ${name} must be an integer of at least ${min}, got ${value}.`,
    )
  }
}

/**
 * Creates a loop guard for one agent run. Unset fields take the defaults of src/defaults.ts.
 * Throws INVALID_CONFIG for settings no guard can honour (a hint or trip below 2 would fire on
 * the first call of every streak).
 */
export function createLoopGuard(config: Partial<LoopGuardConfig> = {}): LoopGuard {
  const cfg: LoopGuardConfig = { ...defaultLoopGuardConfig(), ...config }
  assertSetting('hintAt', cfg.hintAt, 2)
  assertSetting('tripAt', cfg.tripAt, 2)
  assertSetting('maxCyclePeriod', cfg.maxCyclePeriod, 2)
  assertSetting('maxIdenticalCalls', cfg.maxIdenticalCalls, 1)

  /** The last `maxCyclePeriod` recorded calls, oldest first. */
  const recent: Entry[] = []
  /** Absolute index the next recorded call will get. */
  let nextIndex = 0
  /** Where the streak of the last recorded call started, and how many calls at its end share its result. */
  let streakStart = 0
  let sameResultRun = 0
  /** Per period k: how many recorded calls in a row repeat the call k before them (result too, unless strict). */
  const cycleRun: number[] = new Array<number>(cfg.maxCyclePeriod + 1).fill(0)
  /** Hint-once bookkeeping: the streak start, and per period the cycle start, that got a hint. */
  let hintedStreak = -1
  const hintedCycle: number[] = new Array<number>(cfg.maxCyclePeriod + 1).fill(-1)
  /** The signature computed by the last check, reused by the matching record. */
  let cached: { name: string; args: string; signature: string } | undefined

  function signatureOf(call: GuardCall): string {
    if (cached && cached.name === call.name && cached.args === call.args) return cached.signature
    const signature = canonicalToolSignature(call.name, call.args)
    cached = { name: call.name, args: call.args, signature }
    return signature
  }

  /** The recorded call `back` places before the next one (1 = the last recorded call). */
  function recorded(back: number): Entry | undefined {
    return recent[recent.length - back]
  }

  function checkRepeat(name: string, signature: string): GuardDecision {
    const last = recorded(1)
    const streakLength = last && last.signature === signature ? nextIndex - streakStart : 0
    if (streakLength >= cfg.maxIdenticalCalls) {
      const count = streakLength + 1
      return { action: 'trip', detector: 'repeat', count, message: repeatTripMessage(name, count) }
    }
    const count = streakLength === 0 ? 1 : 1 + (cfg.progressAware ? sameResultRun : streakLength)
    if (count >= cfg.tripAt)
      return { action: 'trip', detector: 'repeat', count, message: repeatTripMessage(name, count) }
    const start = streakLength === 0 ? nextIndex : streakStart
    if (count >= cfg.hintAt && hintedStreak !== start) {
      return { action: 'hint', detector: 'repeat', count, message: repeatHintMessage(name, count) }
    }
    return RUN
  }

  /** Tool names of one lap of a period-k cycle, starting where the cycle started. */
  function lapNames(period: number, start: number, name: string): string[] {
    const windowStart = nextIndex - period + 1 // absolute index of the oldest call of the last lap
    const names: string[] = []
    for (let i = 0; i < period; i++) {
      const index = windowStart + ((((start + i - windowStart) % period) + period) % period)
      names.push(index === nextIndex ? name : (recorded(nextIndex - index)?.name ?? '?'))
    }
    return names
  }

  /** The cycle a hint from checkCycle is about, marked hinted only if that hint is returned. */
  let cycleCandidate = { period: 0, start: 0 }

  function checkCycle(name: string, signature: string): GuardDecision {
    for (let period = 2; period <= cfg.maxCyclePeriod; period++) {
      const partner = recorded(period)
      if (!partner || partner.signature !== signature) continue
      const length = period + (cycleRun[period] ?? 0) + 1 // calls in the periodic stretch, this one included
      if (length < 2 * period) continue
      let distinct = false
      for (let back = 1; back < period && !distinct; back++)
        distinct = recorded(back)?.signature !== signature
      if (!distinct) continue // one signature repeated is a streak, not a cycle
      const start = nextIndex - length + 1
      const laps = Math.floor(length / period)
      if (laps >= cfg.tripAt) {
        const message = cycleTripMessage(lapNames(period, start, name), laps)
        return { action: 'trip', detector: 'cycle', count: laps, message }
      }
      if (laps >= cfg.hintAt && hintedCycle[period] !== start) {
        cycleCandidate = { period, start }
        const message = cycleHintMessage(lapNames(period, start, name), laps)
        return { action: 'hint', detector: 'cycle', count: laps, message }
      }
      return RUN // the shortest live cycle decides
    }
    return RUN
  }

  function check(call: GuardCall): GuardDecision {
    if (!cfg.enabled) return RUN
    const signature = signatureOf(call)
    const repeat = checkRepeat(call.name, signature)
    if (repeat.action === 'trip') return repeat
    const cycle = cfg.cycleDetection ? checkCycle(call.name, signature) : RUN
    if (cycle.action === 'trip') return cycle
    if (repeat.action === 'hint') {
      const last = recorded(1)
      hintedStreak = last && last.signature === signature ? streakStart : nextIndex
      return repeat
    }
    if (cycle.action === 'hint') {
      hintedCycle[cycleCandidate.period] = cycleCandidate.start
      pendingCycleHint = cycleCandidate.period
    }
    return cycle
  }

  /** The period of the cycle hint the last check gave, until its call's result is recorded. */
  let pendingCycleHint = 0

  function record(call: GuardCall, observation: string): boolean {
    if (!cfg.enabled) return false
    const signature = signatureOf(call)
    const hinted = pendingCycleHint
    pendingCycleHint = 0
    // The hint was decided before this call ran; a changed result at its position is progress.
    const withdrawn = hinted > 0 && cfg.progressAware && recorded(hinted)?.observation !== observation
    if (withdrawn) hintedCycle[hinted] = -1
    const last = recorded(1)
    if (last && last.signature === signature) {
      sameResultRun = last.observation === observation ? sameResultRun + 1 : 1
    } else {
      streakStart = nextIndex
      sameResultRun = 1
    }
    for (let period = 2; period <= cfg.maxCyclePeriod; period++) {
      const partner = recorded(period)
      const repeats =
        partner !== undefined &&
        partner.signature === signature &&
        (!cfg.progressAware || partner.observation === observation)
      cycleRun[period] = repeats ? (cycleRun[period] ?? 0) + 1 : 0
    }
    recent.push({ name: call.name, signature, observation })
    if (recent.length > cfg.maxCyclePeriod) recent.shift()
    nextIndex++
    return withdrawn
  }

  return { check, record }
}
