/**
 * The loop guard against the written rules of docs/guard.md, beyond the worked examples: every
 * threshold, strict and progress-aware counting, cycles of every period, hint-once bookkeeping,
 * and a property test against a naive reference model that re-reads the whole history each call.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createLoopGuard,
  deadlockObservation,
  FlowError,
  type GuardDecision,
  type LoopGuard,
  type LoopGuardConfig,
} from '../../../src/engine/index.ts'

type Step = [name: string, args: string, obs: string]

/** Feeds steps until a trip; returns the actions (and trip/hint details) in order. */
function play(guard: LoopGuard, steps: readonly Step[]): GuardDecision[] {
  const out: GuardDecision[] = []
  for (const [name, args, obs] of steps) {
    const decision = guard.check({ name, args })
    out.push(decision)
    if (decision.action === 'trip') break
    guard.record({ name, args }, obs)
  }
  return out
}

const actions = (decisions: readonly GuardDecision[]): string[] =>
  decisions.map((d) => (d.action === 'run' ? 'run' : `${d.action}:${d.detector}`))

const repeat = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step)
const A: Step = ['open_file', '{"f":"x.ts"}', 'error TS2322']
const B: Step = ['edit_file', '{"f":"x.ts","v":1}', 'ok']
const C: Step = ['run_tests', '{}', '1 failing']
const D: Step = ['read_log', '{"n":10}', 'same log']

describe('repeat detector', () => {
  it.each([2, 3, 4, 5, 6, 7, 8, 9, 10])(
    'with tripAt %i: hint on the 2nd identical call, trip on call number tripAt',
    (tripAt) => {
      const decisions = play(createLoopGuard({ tripAt }), repeat(20, ['q', '{"a":1}', '[]']))
      expect(decisions).toHaveLength(tripAt)
      const expected = [
        'run',
        ...Array.from({ length: tripAt - 2 }, (_, i) => (i === 0 ? 'hint:repeat' : 'run')),
        'trip:repeat',
      ]
      expect(actions(decisions)).toEqual(expected)
      expect(decisions[tripAt - 1]).toMatchObject({ action: 'trip', count: tripAt })
    },
  )

  it('uses the exact hint and trip texts of the spec', () => {
    const decisions = play(createLoopGuard(), repeat(3, ['query_db', '{"status":"pending"}', '[]']))
    expect(decisions[1]).toEqual({
      action: 'hint',
      detector: 'repeat',
      count: 2,
      message:
        '[System Hint: You invoked tool "query_db" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]',
    })
    expect(decisions[2]).toEqual({
      action: 'trip',
      detector: 'repeat',
      count: 3,
      message:
        '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_db". Terminating loop to prevent token waste.',
    })
    expect(deadlockObservation(3)).toBe(
      'Observation: Execution halted by Deadlock Breaker (3 identical calls). Please synthesize conclusion immediately.',
    )
  })

  it('counts only the calls at the end of the streak that share the latest result', () => {
    const guard = createLoopGuard({ tripAt: 4 })
    const obs = ['10%', '40%', '40%', '40%']
    const decisions = obs.map((o) => {
      const d = guard.check({ name: 'job', args: '{}' })
      if (d.action !== 'trip') guard.record({ name: 'job', args: '{}' }, o)
      return d
    })
    // counts: 1, 2 (hint), 2 (10% then 40%), 3; the fifth would be 4.
    expect(actions(decisions)).toEqual(['run', 'hint:repeat', 'run', 'run'])
    expect(guard.check({ name: 'job', args: '{}' })).toMatchObject({ action: 'trip', count: 4 })
  })

  it('gives one hint per streak, however long the streak runs', () => {
    const steps: Step[] = Array.from({ length: 8 }, (_, i) => ['poll', '{"id":1}', `${i * 10}%`])
    const decisions = play(createLoopGuard(), steps)
    expect(actions(decisions).filter((a) => a.startsWith('hint'))).toHaveLength(1)
    expect(actions(decisions)).not.toContain('trip:repeat')
  })

  it('gives a new streak a new hint', () => {
    const x: Step = ['x', '{}', '[]']
    const y: Step = ['y', '{}', '[]']
    expect(actions(play(createLoopGuard(), [x, x, y, x, x]))).toEqual([
      'run',
      'hint:repeat',
      'run',
      'run',
      'hint:repeat',
    ])
  })

  it('trips polling that never settles after maxIdenticalCalls calls', () => {
    const steps: Step[] = Array.from({ length: 30 }, (_, i) => ['poll', '{"id":1}', `tick ${i}`])
    const decisions = play(createLoopGuard(), steps)
    expect(decisions).toHaveLength(11)
    expect(decisions[10]).toMatchObject({ action: 'trip', detector: 'repeat', count: 11 })
    expect(play(createLoopGuard({ maxIdenticalCalls: 4 }), steps)).toHaveLength(5)
  })

  it('in strict mode counts every identical call, whatever it returned', () => {
    const steps: Step[] = Array.from({ length: 9 }, (_, i) => ['poll', '{"id":1}', `${i}`])
    const decisions = play(createLoopGuard({ progressAware: false, tripAt: 5 }), steps)
    expect(actions(decisions)).toEqual(['run', 'hint:repeat', 'run', 'run', 'trip:repeat'])
  })

  it('sees key-order drift and reformatting as the same call', () => {
    const steps: Step[] = [
      ['search', '{"q":"a","opts":{"x":1,"y":[1,2]}}', '[]'],
      ['search', '{ "opts": { "y": [1, 2.0], "x": 1e0 }, "q": "a" }', '[]'],
      ['search', '{"opts":{"y":[1,2],"x":1},"q":"\\u0061"}', '[]'],
    ]
    expect(actions(play(createLoopGuard(), steps))).toEqual(['run', 'hint:repeat', 'trip:repeat'])
  })

  it('never records a tripped call: asking again trips again with the same count', () => {
    const guard = createLoopGuard()
    play(guard, repeat(3, ['q', '{}', '[]']))
    expect(guard.check({ name: 'q', args: '{}' })).toMatchObject({ action: 'trip', count: 3 })
  })

  it('records the call it is given, even when another call was checked last', () => {
    const guard = createLoopGuard()
    guard.check({ name: 'a', args: '{}' })
    guard.record({ name: 'b', args: '{}' }, 'x')
    expect(guard.check({ name: 'b', args: '{}' })).toMatchObject({ action: 'hint', detector: 'repeat' })
  })

  it('lets everything run when disabled', () => {
    const guard = createLoopGuard({ enabled: false })
    expect(
      actions(play(guard, [...repeat(12, ['q', '{}', '[]']), A, B, A, B, A, B])).every((a) => a === 'run'),
    ).toBe(true)
  })

  it('refuses settings no guard can honour', () => {
    expect(() => createLoopGuard({ tripAt: 1 })).toThrow(FlowError)
    expect(() => createLoopGuard({ hintAt: 0 })).toThrow(/hintAt/)
    expect(() => createLoopGuard({ maxCyclePeriod: 1.5 })).toThrow(/maxCyclePeriod/)
  })
})

describe('cycle detector', () => {
  it('hints on the call completing the 2nd lap and trips on the one completing the 3rd, naming the cycle', () => {
    const decisions = play(createLoopGuard(), [A, B, A, B, A, B])
    expect(actions(decisions)).toEqual(['run', 'run', 'run', 'hint:cycle', 'run', 'trip:cycle'])
    expect(decisions[3]).toMatchObject({ count: 2 })
    expect(decisions[5]).toMatchObject({ count: 3 })
    const trip = decisions[5]
    expect(trip?.action === 'trip' && trip.message).toBe(
      '[Agent Deadlock Protection] Tripped: 3 consecutive repetitions of the cycle "open_file" -> "edit_file". Terminating loop to prevent token waste.',
    )
    const hint = decisions[3]
    expect(hint?.action === 'hint' && hint.message).toContain('"open_file" -> "edit_file"')
  })

  it('finds period-4 cycles: hint on the 8th call, trip on the 12th', () => {
    const lap = [A, B, C, D]
    const decisions = play(createLoopGuard(), [...lap, ...lap, ...lap, ...lap])
    expect(decisions).toHaveLength(12)
    expect(
      actions(decisions)
        .map((a, i) => `${i + 1}:${a}`)
        .filter((a) => !a.endsWith('run')),
    ).toEqual(['8:hint:cycle', '12:trip:cycle'])
    const trip = decisions[11]
    expect(trip?.action === 'trip' && trip.message).toContain(
      '"open_file" -> "edit_file" -> "run_tests" -> "read_log"',
    )
  })

  it('looks for no cycle longer than maxCyclePeriod', () => {
    const lap = [A, B, C, D]
    const decisions = play(createLoopGuard({ maxCyclePeriod: 3 }), [...lap, ...lap, ...lap, ...lap])
    expect(actions(decisions).every((a) => a === 'run')).toBe(true)
  })

  it('names the cycle from where it started, even if it started mid-turn', () => {
    const decisions = play(createLoopGuard(), [C, B, A, B, A, B, A])
    // C, then B-A-B-A completes two laps of "edit_file" -> "open_file" on the 5th call.
    expect(actions(decisions)).toEqual(['run', 'run', 'run', 'run', 'hint:cycle', 'run', 'trip:cycle'])
    const hint = decisions[4]
    expect(hint?.action === 'hint' && hint.message).toContain('"edit_file" -> "open_file"')
  })

  it('sees a cycle through key-order drift', () => {
    const a1: Step = ['get', '{"a":1,"b":2}', 'same']
    const a2: Step = ['get', '{"b":2,"a":1}', 'same']
    const b1: Step = ['put', '{"x":[1,{"k":1,"j":2}]}', 'ok']
    const b2: Step = ['put', '{ "x" : [1.0, {"j":2,"k":1}] }', 'ok']
    expect(actions(play(createLoopGuard(), [a1, b1, a2, b2, a1, b2]))).toEqual([
      'run',
      'run',
      'run',
      'hint:cycle',
      'run',
      'trip:cycle',
    ])
  })

  it('restarts when a result changes; the new stretch is a new cycle with its own hint', () => {
    const changedA: Step = [A[0], A[1], 'no errors']
    const decisions = play(createLoopGuard(), [A, B, A, B, changedA, B, changedA, B, changedA])
    expect(actions(decisions)).toEqual([
      'run',
      'run',
      'run',
      'hint:cycle',
      'run',
      'run',
      'hint:cycle',
      'run',
      'trip:cycle',
    ])
  })

  it('is broken by a different call in between', () => {
    expect(actions(play(createLoopGuard(), [A, B, A, C, B, A, B, A]))).toEqual([
      'run',
      'run',
      'run',
      'run',
      'run',
      'run',
      'run',
      'hint:cycle',
    ])
  })

  it('gives one hint per cycle', () => {
    const decisions = play(createLoopGuard({ tripAt: 6 }), [A, B, A, B, A, B, A, B, A, B, A, B])
    expect(actions(decisions).filter((a) => a === 'hint:cycle')).toHaveLength(1)
    expect(actions(decisions).at(-1)).toBe('trip:cycle')
    expect(decisions).toHaveLength(12)
  })

  it('ignores results in strict mode: paging alternation trips', () => {
    const steps: Step[] = [1, 2, 3].flatMap((p): Step[] => [
      ['next_page', '{}', `p${p}`],
      ['read_page', '{}', `c${p}`],
    ])
    expect(actions(play(createLoopGuard({ progressAware: false }), steps))).toEqual([
      'run',
      'run',
      'run',
      'hint:cycle',
      'run',
      'trip:cycle',
    ])
    expect(actions(play(createLoopGuard(), steps)).every((a) => a === 'run')).toBe(true)
  })

  it('can be switched off on its own', () => {
    expect(
      actions(play(createLoopGuard({ cycleDetection: false }), [A, B, A, B, A, B, A, B])).every(
        (a) => a === 'run',
      ),
    ).toBe(true)
  })

  it('does not call one repeated call a cycle, and works beside the repeat detector', () => {
    const x: Step = ['x', '{}', '[]']
    const y: Step = ['y', '{}', 'ok']
    // x x y | x x y | x x y: repeat hints per streak, the cycle hints on the 6th and trips on the 9th.
    const decisions = play(createLoopGuard(), [x, x, y, x, x, y, x, x, y])
    expect(actions(decisions)).toEqual([
      'run',
      'hint:repeat',
      'run',
      'run',
      'hint:repeat',
      'hint:cycle',
      'run',
      'hint:repeat',
      'trip:cycle',
    ])
  })
})

// --- Reference model ----------------------------------------------------------------------------

interface RefEntry {
  sig: string
  obs: string
}

/** The rules of docs/guard.md read literally, over the whole history, with no incremental state. */
function referenceGuard(cfg: LoopGuardConfig) {
  const history: RefEntry[] = []
  const hintedStreaks = new Set<number>()
  const hintedCycles = new Set<string>()
  return {
    check(sig: string): string {
      if (!cfg.enabled) return 'run'
      const n = history.length
      let streak = 0
      while (streak < n && history[n - 1 - streak]?.sig === sig) streak++
      let sameTail = 0
      const latest = history[n - 1]?.obs
      while (sameTail < streak && history[n - 1 - sameTail]?.obs === latest) sameTail++
      let repeat = 'run'
      if (streak >= cfg.maxIdenticalCalls) repeat = 'trip'
      else {
        const count = streak === 0 ? 1 : 1 + (cfg.progressAware ? sameTail : streak)
        if (count >= cfg.tripAt) repeat = 'trip'
        else if (count >= cfg.hintAt && !hintedStreaks.has(n - streak)) repeat = 'hint'
      }
      let cycle = 'run'
      let cycleKey = ''
      if (cfg.cycleDetection) {
        const sigs = [...history.map((h) => h.sig), sig]
        for (let k = 2; k <= cfg.maxCyclePeriod && cycle === 'run'; k++) {
          let r = 0
          for (let j = n; j - k >= 0; j--) {
            const sameSig = sigs[j] === sigs[j - k]
            const sameObs = j === n || !cfg.progressAware || history[j]?.obs === history[j - k]?.obs
            if (!sameSig || !sameObs) break
            r++
          }
          const length = r + k
          if (r === 0 || length < 2 * k) continue
          if (new Set(sigs.slice(n - k + 1)).size < 2) continue
          const laps = Math.floor(length / k)
          cycleKey = `${k}@${n - length + 1}`
          if (laps >= cfg.tripAt) cycle = 'trip'
          else if (laps >= cfg.hintAt && !hintedCycles.has(cycleKey)) cycle = 'hint'
          else break
        }
      }
      if (repeat === 'trip') return 'trip:repeat'
      if (cycle === 'trip') return 'trip:cycle'
      if (repeat === 'hint') {
        hintedStreaks.add(n - streak)
        return 'hint:repeat'
      }
      if (cycle === 'hint') {
        hintedCycles.add(cycleKey)
        return 'hint:cycle'
      }
      return 'run'
    },
    record(sig: string, obs: string): void {
      if (cfg.enabled) history.push({ sig, obs })
    },
  }
}

describe('the guard against a naive reading of the rules (property)', () => {
  // Calls with drifting spellings of the same arguments, so signatures matter.
  const calls = [
    { name: 'a', spellings: ['{"x":1,"y":2}', '{"y":2,"x":1}', '{ "x": 1.0, "y": 2 }'], sig: 'a1' },
    { name: 'a', spellings: ['{"x":2}'], sig: 'a2' },
    { name: 'b', spellings: ['{}', ' { } '], sig: 'b' },
    { name: 'c', spellings: ['[1,2]'], sig: 'c' },
  ]
  const config = fc.record({
    enabled: fc.boolean(),
    hintAt: fc.constant(2),
    tripAt: fc.integer({ min: 2, max: 10 }),
    progressAware: fc.boolean(),
    cycleDetection: fc.boolean(),
    maxCyclePeriod: fc.integer({ min: 2, max: 5 }),
    maxIdenticalCalls: fc.integer({ min: 1, max: 12 }),
  })
  const step = fc.record({
    call: fc.integer({ min: 0, max: calls.length - 1 }),
    spelling: fc.nat(),
    obs: fc.constantFrom('[]', '[]', 'x', 'y'),
  })

  it('makes the same decision at every step of any sequence', () => {
    fc.assert(
      fc.property(config, fc.array(step, { maxLength: 40 }), (cfg, steps) => {
        const guard = createLoopGuard(cfg)
        const ref = referenceGuard(cfg)
        for (const s of steps) {
          const call = calls[s.call] as (typeof calls)[number]
          const args = call.spellings[s.spelling % call.spellings.length] as string
          const decision = guard.check({ name: call.name, args })
          const actual = decision.action === 'run' ? 'run' : `${decision.action}:${decision.detector}`
          expect(actual).toBe(ref.check(call.sig))
          if (decision.action === 'trip') return
          guard.record({ name: call.name, args }, s.obs)
          ref.record(call.sig, s.obs)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('never hints or trips on calls that are all different', () => {
    fc.assert(
      fc.property(
        config,
        fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 60 }),
        fc.constantFrom('[]', 'x'),
        (cfg, keys, obs) => {
          const guard = createLoopGuard(cfg)
          for (const key of keys) {
            const call = { name: 'tool', args: JSON.stringify({ key }) }
            expect(guard.check(call).action).toBe('run')
            guard.record(call, obs)
          }
        },
      ),
    )
  })
})
