/**
 * Every worked example of docs/guard.md's scenario file, fed to a real guard: the decision at
 * each step must match, and results are reported for every call that was not tripped.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createLoopGuard, type LoopGuardConfig } from '../../../src/engine/index.ts'

interface Step {
  name: string
  args: string
  expect: 'run' | 'hint' | 'trip'
  detector?: 'repeat' | 'cycle'
  obs?: string
}

interface Scenario {
  id: string
  about: string
  steps: Step[]
  config?: Partial<LoopGuardConfig>
}

const file = new URL('../../fixtures/guard-scenarios.json', import.meta.url)
const { scenarios } = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Scenario[] }

describe('guard scenarios (tests/fixtures/guard-scenarios.json)', () => {
  it('has scenarios to run', () => {
    expect(scenarios.length).toBeGreaterThan(10)
  })

  it.each(scenarios.map((s) => [s.id, s] as const))('%s', (_id, scenario) => {
    const guard = createLoopGuard(scenario.config)
    scenario.steps.forEach((step, index) => {
      const decision = guard.check({ name: step.name, args: step.args })
      const where = `${scenario.id} step ${index + 1} (${scenario.about})`
      expect(decision.action, where).toBe(step.expect)
      if (step.detector !== undefined && decision.action !== 'run') {
        expect(decision.detector, where).toBe(step.detector)
      }
      if (decision.action !== 'trip') guard.record({ name: step.name, args: step.args }, step.obs ?? '')
    })
  })
})
