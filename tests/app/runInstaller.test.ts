import { describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/app/core/createApp.ts'
import type { KeyService } from '../../src/app/core/keyService.ts'
import { settingsKeyAccess } from '../../src/app/runs/install.ts'
import { noopFlowsService } from '../../src/ui/services.ts'
import type { SettingsSync } from '../../src/app/core/settingsSync.ts'

type KeyCore = Pick<AppCore, 'settings' | 'area'>

/** A core whose keys are locked; the prompt answers `answer`; `steps` records the order. */
function lockedCore(answer: boolean, area: KeyCore['area'], steps: string[]): KeyCore {
  let locked = true
  const keys: Pick<KeyService, 'isLocked' | 'requestUnlock'> = {
    isLocked: () => locked,
    async requestUnlock(purpose) {
      steps.push(`prompt:${purpose ?? ''}`)
      locked = !answer
      return answer
    },
  }
  return { settings: { keys } as unknown as SettingsSync, area }
}

describe('locked keys for runs, through the core key service and the settings area', () => {
  const loads =
    (steps: string[]): KeyCore['area'] =>
    async (name) => {
      steps.push(`load:${name}`)
      return { flows: noopFlowsService }
    }

  it('reads the lock from the key service', () => {
    const core = lockedCore(true, loads([]), [])
    expect(settingsKeyAccess(core).isLocked()).toBe(true)
  })

  it('loads the settings area (the passphrase dialog) before asking, then unlocks', async () => {
    const steps: string[] = []
    const keys = settingsKeyAccess(lockedCore(true, loads(steps), steps))
    expect(await keys.requestUnlock?.()).toBe(true)
    expect(steps).toEqual(['load:settings', 'prompt:unlockForRun'])
    expect(keys.isLocked()).toBe(false)
  })

  it('reports a cancelled prompt as still locked', async () => {
    const steps: string[] = []
    const keys = settingsKeyAccess(lockedCore(false, loads(steps), steps))
    expect(await keys.requestUnlock?.()).toBe(false)
    expect(keys.isLocked()).toBe(true)
  })

  it('cannot unlock when the settings area fails to load, and asks nothing', async () => {
    const steps: string[] = []
    const core = lockedCore(true, () => Promise.reject(new Error('offline')), steps)
    expect(await settingsKeyAccess(core).requestUnlock?.()).toBe(false)
    expect(steps).toEqual([])
  })
})
