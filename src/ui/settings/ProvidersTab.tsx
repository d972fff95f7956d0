/**
 * Providers: the list (with which one is the default), add / edit / remove, and the editor.
 * The list says whether a provider has a key, never the key itself.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DEMO_PROVIDER, type AppSettings, type ProviderSettings } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { ProviderForm } from './ProviderForm.tsx'
import { newProvider } from './providerDraft.ts'
import { settingsUiStore, useSettingsUi } from '../../store/settingsUiStore.ts'
import { useUnlockKeys } from './useUnlockKeys.ts'
import { providerLabel } from '../kit/providerLabel.ts'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'

type Editing = { index: number; provider: ProviderSettings } | null

/** Settings with provider `index` replaced (or appended when -1); the default follows a renamed id. */
export function withProvider(settings: AppSettings, index: number, provider: ProviderSettings): AppSettings {
  const providers = [...settings.providers]
  const previousId = index >= 0 ? providers[index]?.id : undefined
  if (index >= 0) providers[index] = provider
  else providers.push(provider)
  const renamedDefault = previousId !== undefined && previousId === settings.defaultProviderId
  return {
    ...settings,
    providers,
    defaultProviderId: renamedDefault ? provider.id : settings.defaultProviderId,
  }
}

/** Settings without provider `index`; a removed default passes to the first one left. */
export function withoutProvider(settings: AppSettings, index: number): AppSettings {
  const removed = settings.providers[index]
  const providers = settings.providers.filter((_, i) => i !== index)
  const defaultProviderId =
    removed !== undefined && removed.id === settings.defaultProviderId
      ? (providers[0]?.id ?? '')
      : settings.defaultProviderId
  return { ...settings, providers, defaultProviderId }
}

export function ProvidersTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const settings = useSettings((s) => s)
  const keyState = useSettingsUi((s) => s.keyState)
  const keysLocked = keyState === 'locked'
  const noKeyYet = settings.providers.every((p) => p.apiKey === '')
  const unlock = useUnlockKeys()
  const [editing, setEditing] = useState<Editing>(null)
  const [removing, setRemoving] = useState<number | null>(null)
  const [status, setStatus] = useState<FormOutcome | null>(null)
  const defaultId = useId()

  async function apply(next: AppSettings): Promise<void> {
    await api.save(next)
    setStatus({ ok: true, text: t('common.saved') })
  }

  /** Locks the keys before the first one is stored, so it is encrypted from its first write. */
  async function lockFirst(): Promise<boolean> {
    const passphrase = await settingsUiStore.getState().askPassphrase({ purpose: 'lockKeys', confirm: true })
    if (passphrase === null) return false
    try {
      await api.lockKeys(passphrase)
      return true
    } catch (error) {
      setStatus({ ok: false, text: errorText(t, i18n, error) })
      return false
    }
  }

  function tryApply(next: AppSettings): void {
    apply(next).catch((error: unknown) => setStatus({ ok: false, text: errorText(t, i18n, error) }))
  }

  if (editing !== null) {
    const otherIds = settings.providers.filter((_, i) => i !== editing.index).map((p) => p.id)
    return (
      <ProviderForm
        api={api}
        initial={editing.provider}
        otherIds={otherIds}
        isNew={editing.index < 0}
        keysLocked={keysLocked}
        offerLock={keyState === 'plain' && noKeyYet}
        onLockFirst={lockFirst}
        onUnlock={unlock}
        onCancel={() => setEditing(null)}
        onSave={async (provider) => {
          await apply(withProvider(settings, editing.index, provider))
          setEditing(null)
        }}
      />
    )
  }

  const removingProvider = removing === null ? undefined : settings.providers[removing]
  return (
    <section className="wf-settings-section" data-testid="providers-tab">
      <div className="wf-field">
        <label htmlFor={defaultId}>{t('providers.default')}</label>
        <select
          id={defaultId}
          className="wf-select"
          data-testid="default-provider"
          value={settings.defaultProviderId}
          onChange={(e) => tryApply({ ...settings, defaultProviderId: e.target.value })}
        >
          {settings.providers.map((p) => (
            <option key={p.id} value={p.id}>
              {providerLabel(p, t)}
            </option>
          ))}
        </select>
      </div>
      <ul className="wf-provider-list" aria-label={t('providers.listLabel')} data-testid="provider-list">
        {settings.providers.map((p, index) => (
          <li key={p.id} data-testid="provider-list-item" data-provider-id={p.id}>
            <div className="wf-provider-list__text">
              <strong>{providerLabel(p, t)}</strong>
              {p.id === settings.defaultProviderId ? (
                <span className="wf-badge">{t('providers.isDefault')}</span>
              ) : null}
              <span className="wf-settings-hint">
                {t(`provider.kinds.${p.kind}`)}
                {p.kind === 'demo' ? '' : ` · ${p.baseUrl || t('providers.noUrl')}`}
                {p.model === '' ? '' : ` · ${p.model}`}
                {p.kind === 'demo' ? '' : ` · ${keyStatus(t, p, keysLocked)}`}
              </span>
            </div>
            <Button size="sm" icon="edit" onClick={() => setEditing({ index, provider: p })}>
              {t('providers.edit')}
            </Button>
            {isBuiltIn(p) ? (
              <span className="wf-settings-hint wf-provider-list__built-in" data-testid="provider-built-in">
                {t('providers.builtIn')}
              </span>
            ) : (
              <Button size="sm" variant="danger" icon="trash" onClick={() => setRemoving(index)}>
                {t('providers.remove')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <div className="wf-settings-actions">
        <FormStatus status={status} />
        <Button
          icon="plus"
          variant="primary"
          data-testid="provider-add"
          onClick={() =>
            setEditing({ index: -1, provider: newProvider(settings.providers.map((p) => p.id)) })
          }
        >
          {t('providers.add')}
        </Button>
      </div>
      {removingProvider !== undefined && removing !== null ? (
        <Dialog
          open
          size="sm"
          title={t('providers.removeTitle', { name: removingProvider.label || removingProvider.id })}
          closeLabel={t('common.close')}
          onClose={() => setRemoving(null)}
          footer={
            <>
              <Button onClick={() => setRemoving(null)}>{t('common.cancel')}</Button>
              <Button
                variant="danger"
                data-testid="provider-remove-confirm"
                onClick={() => {
                  tryApply(withoutProvider(settings, removing))
                  setRemoving(null)
                }}
              >
                {t('providers.remove')}
              </Button>
            </>
          }
        >
          <p>{t('providers.removeText')}</p>
        </Dialog>
      ) : null}
    </section>
  )
}

/** The built-in demo provider: templates and new flows run on it, so it cannot be removed. */
function isBuiltIn(p: ProviderSettings): boolean {
  return p.id === DEMO_PROVIDER.id && p.kind === 'demo'
}

function keyStatus(t: (key: string) => string, p: ProviderSettings, locked: boolean): string {
  if (locked) return t('providers.keyLocked')
  return p.apiKey === '' ? t('providers.noKey') : t('providers.hasKey')
}
