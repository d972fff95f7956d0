/** Opens the passphrase dialog to unlock the keys for this session. */
import { useCallback } from 'react'
import { useServices } from '../services.ts'
import { settingsUiStore } from '../../store/settingsUiStore.ts'

export function useUnlockKeys(): () => void {
  const api = useServices().settingsPanel
  return useCallback(() => {
    if (api === undefined) return
    void settingsUiStore.getState().askPassphrase({
      purpose: 'unlockKeys',
      confirm: false,
      verify: (passphrase) => api.unlockKeys(passphrase),
    })
  }, [api])
}
