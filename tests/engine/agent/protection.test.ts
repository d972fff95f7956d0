import { describe, expect, it } from 'vitest'
import { AGENT_FINALIZE_AFTER_STOP } from '../../../src/defaults.ts'
import { defaultProtection, resolveAgentProtection } from '../../../src/engine/index.ts'

describe('resolveAgentProtection', () => {
  it('takes the node value first, then the global setting, then the default', () => {
    const global = { ...defaultProtection(), maxIterations: 7, loopDetectionThreshold: 5 }
    const resolved = resolveAgentProtection(
      { maxIterations: 3, progressAware: false, cycleDetection: null },
      global,
    )
    expect(resolved).toEqual({
      ...global,
      maxIterations: 3,
      progressAware: false,
      finalizeAfterStop: AGENT_FINALIZE_AFTER_STOP,
    })
  })

  it('uses the defaults when neither node nor global settings say anything', () => {
    expect(resolveAgentProtection()).toEqual({
      ...defaultProtection(),
      finalizeAfterStop: AGENT_FINALIZE_AFTER_STOP,
    })
  })

  it('keeps false and 0 from the node instead of treating them as unset', () => {
    const resolved = resolveAgentProtection(
      { loopDetectionEnabled: false, maxTokenBudget: 0 },
      { ...defaultProtection(), maxTokenBudget: 5000 },
    )
    expect(resolved.loopDetectionEnabled).toBe(false)
    expect(resolved.maxTokenBudget).toBe(0)
  })
})
