/**
 * Where keys live and the optional passphrase lock (PBKDF2 + AES-GCM, storage/keyLock.ts).
 * Unlocking keeps the keys decrypted in memory for this session only. It says plainly what
 * locking later cannot erase (copies the browser keeps on disk until it compacts its files),
 * and offers the lock before the first key is stored.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { settingsUiStore, useSettingsUi } from '../../store/settingsUiStore.ts'
import { useUnlockKeys } from './useUnlockKeys.ts'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'

export function KeysTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const keyState = useSettingsUi((s) => s.keyState)
  const noKeyYet = useSettings((s) => s.providers.every((p) => p.apiKey === ''))
  const unlock = useUnlockKeys()
  const [status, setStatus] = useState<FormOutcome | null>(null)

  async function lock(): Promise<void> {
    setStatus(null)
    const passphrase = await settingsUiStore.getState().askPassphrase({ purpose: 'lockKeys', confirm: true })
    if (passphrase === null) return
    try {
      await api.lockKeys(passphrase)
      setStatus({ ok: true, text: t('keys.lockedDone') })
    } catch (error) {
      setStatus({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  async function removeLock(): Promise<void> {
    setStatus(null)
    const passphrase = await settingsUiStore
      .getState()
      .askPassphrase({ purpose: 'removeLock', confirm: false, verify: (p) => api.removeKeyLock(p) })
    if (passphrase !== null) setStatus({ ok: true, text: t('keys.removedDone') })
  }

  return (
    <section className="wf-settings-section" data-testid="keys-tab">
      <p>{t('keys.where')}</p>
      <p className="wf-key-state" data-testid="key-state" data-state={keyState}>
        <strong>{t('keys.stateLabel')}</strong> {t(`keys.state.${keyState}`)}
      </p>
      <p className="wf-settings-hint">{t('keys.lockExplain')}</p>
      {keyState === 'plain' && noKeyYet ? (
        <p className="wf-settings-hint" data-testid="keys-first-key">
          {t('keys.firstKey')}
        </p>
      ) : null}
      <div className="wf-keys-at-rest" data-testid="keys-at-rest">
        <strong>{t('keys.atRestTitle')}</strong>
        <p>{t('keys.atRest')}</p>
      </div>
      <div className="wf-settings-actions wf-settings-actions--start">
        {keyState === 'plain' ? (
          <Button variant="primary" icon="shield" data-testid="keys-lock" onClick={() => void lock()}>
            {t('keys.lock')}
          </Button>
        ) : null}
        {keyState === 'locked' ? (
          <Button variant="primary" data-testid="keys-unlock" onClick={unlock}>
            {t('keys.unlock')}
          </Button>
        ) : null}
        {keyState !== 'plain' ? (
          <Button data-testid="keys-remove-lock" onClick={() => void removeLock()}>
            {t('keys.removeLock')}
          </Button>
        ) : null}
      </div>
      <FormStatus status={status} block />
    </section>
  )
}
