import { afterEach, describe, expect, it } from 'vitest'
import { settingsKeyAccess } from '../../src/app/runInstaller.ts'
import { noopFlowsService, type AppServices } from '../../src/app/services.ts'
import type { SettingsPanelApi } from '../../src/ui/settings/api.ts'
import { settingsUiStore } from '../../src/ui/settings/settingsUiStore.ts'

function servicesWith(unlockKeys: (passphrase: string) => Promise<void>): AppServices {
  return { flows: noopFlowsService, settingsPanel: { unlockKeys } as unknown as SettingsPanelApi }
}

afterEach(() => {
  settingsUiStore.getState().setKeyState('plain')
})

describe('locked keys for runs, through the settings area', () => {
  it('reads the lock from the published key state', () => {
    const keys = settingsKeyAccess(servicesWith(async () => undefined))
    expect(keys.isLocked()).toBe(false)
    settingsUiStore.getState().setKeyState('locked')
    expect(keys.isLocked()).toBe(true)
    settingsUiStore.getState().setKeyState('unlocked')
    expect(keys.isLocked()).toBe(false)
  })

  it('asks for the passphrase for a run and unlocks with the settings panel', async () => {
    const tried: string[] = []
    const keys = settingsKeyAccess(
      servicesWith(async (passphrase) => {
        tried.push(passphrase)
        settingsUiStore.getState().setKeyState('unlocked')
      }),
    )
    settingsUiStore.getState().setKeyState('locked')
    const answer = keys.requestUnlock?.()
    const request = settingsUiStore.getState().passphrase
    expect(request?.purpose).toBe('unlockForRun')
    await request?.verify?.('correct horse')
    settingsUiStore.getState().answerPassphrase(request?.id ?? -1, 'correct horse')
    expect(await answer).toBe(true)
    expect(tried).toEqual(['correct horse'])
    expect(keys.isLocked()).toBe(false)
  })

  it('reports a cancelled prompt as still locked', async () => {
    const keys = settingsKeyAccess(servicesWith(async () => undefined))
    settingsUiStore.getState().setKeyState('locked')
    const answer = keys.requestUnlock?.()
    const request = settingsUiStore.getState().passphrase
    settingsUiStore.getState().answerPassphrase(request?.id ?? -1, null)
    expect(await answer).toBe(false)
  })

  it('cannot unlock without the settings area', async () => {
    const keys = settingsKeyAccess({ flows: noopFlowsService })
    expect(await keys.requestUnlock?.()).toBe(false)
  })
})
