/**
 * The provider editor (`provider-form`): id, label, kind, base URL (with presets), default model
 * (with the server's model list), masked API key, test connection, streaming and extra headers.
 * Changes stay in the form until Save; the key is only ever shown through the reveal toggle.
 */
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { DEMO_PROVIDER, providerKindSchema, type ProviderSettings } from '../../settings/schema.ts'
import { Button } from '../kit/Button.tsx'
import { ApiKeyField } from './ApiKeyField.tsx'
import type { ConnectionResult, SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { HeadersEditor } from './HeadersEditor.tsx'
import { BASE_URL_PRESETS, CUSTOM_PRESET, baseUrlForKind, presetOf } from './presets.ts'
import { checkProvider, cleanProvider } from './providerDraft.ts'
import { Switch } from './Switch.tsx'

export interface ProviderFormProps {
  api: SettingsPanelApi
  initial: ProviderSettings
  /** Ids of the other providers (the id must not collide). */
  otherIds: readonly string[]
  isNew: boolean
  keysLocked: boolean
  /** Keys are stored unencrypted and none is stored yet: offer the lock before the first one. */
  offerLock: boolean
  /** Locks the keys with a new passphrase (the passphrase dialog); true when locked. */
  onLockFirst(): Promise<boolean>
  onSave(provider: ProviderSettings): Promise<void>
  onCancel(): void
  onUnlock(): void
}

type Probe = { busy: true } | { busy: false; ok: boolean; text: string }

export function ProviderForm({
  api,
  initial,
  otherIds,
  isNew,
  keysLocked,
  offerLock,
  onLockFirst,
  onSave,
  onCancel,
  onUnlock,
}: ProviderFormProps) {
  const { t, i18n } = useTranslation('settings')
  const [draft, setDraft] = useState<ProviderSettings>(initial)
  const [tried, setTried] = useState(false)
  const [probe, setProbe] = useState<Probe | null>(null)
  const [modelsNote, setModelsNote] = useState<{ ok: boolean; text: string } | null>(null)
  const [saveError, setSaveError] = useState<string | null>(null)
  const [kindNote, setKindNote] = useState<string | null>(null)
  const [lockedHere, setLockedHere] = useState(false)
  // The built-in demo provider keeps its id and kind: templates and new flows rely on them.
  const builtIn = !isNew && initial.id === DEMO_PROVIDER.id && initial.kind === 'demo'
  const ids = {
    id: useId(),
    label: useId(),
    kind: useId(),
    preset: useId(),
    url: useId(),
    model: useId(),
    list: useId(),
  }
  const problems = checkProvider(draft, otherIds)
  const shown = tried ? problems : {}
  const patch = (p: Partial<ProviderSettings>): void => setDraft((d) => ({ ...d, ...p }))
  const isDemo = draft.kind === 'demo'
  // The server's model list; an empty default model takes the first one, so a provider whose
  // connection was just tested answers without the person having to copy a model name over.
  const takeModels = (models: string[]): void =>
    setDraft((d) => ({ ...d, models, model: d.model.trim() === '' ? (models[0] ?? '') : d.model }))

  async function loadModels(): Promise<void> {
    setModelsNote(null)
    try {
      const models = await api.listModels(cleanProvider(draft))
      takeModels(models)
      setModelsNote({ ok: true, text: t('provider.modelsLoaded', { count: models.length }) })
    } catch (error) {
      setModelsNote({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  async function test(): Promise<void> {
    setProbe({ busy: true })
    const result: ConnectionResult = await api
      .testConnection(cleanProvider(draft))
      .catch((error: unknown) => ({
        ok: false,
        message: errorText(t, i18n, error),
      }))
    if (result.ok && result.models !== undefined) takeModels(result.models)
    const text = result.ok
      ? t('provider.testOk', { count: result.models?.length ?? 0 })
      : errorText(t, i18n, { code: result.code, message: result.message })
    setProbe({ busy: false, ok: result.ok, text })
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault()
    setTried(true)
    setSaveError(null)
    if (Object.keys(problems).length > 0) return
    try {
      await onSave(cleanProvider(draft))
    } catch (error) {
      setSaveError(errorText(t, i18n, error))
    }
  }

  const problemText = (field: keyof typeof problems) => {
    const key = shown[field]
    return key === undefined ? null : (
      <span className="wf-field-error" role="alert">
        {t(`provider.problems.${key}`)}
      </span>
    )
  }

  return (
    <form
      className="wf-settings-form wf-provider-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      data-testid="provider-form"
      aria-label={
        isNew ? t('provider.addTitle') : t('provider.editTitle', { name: initial.label || initial.id })
      }
    >
      <div className="wf-field-grid">
        <div className="wf-field">
          <label htmlFor={ids.id}>{t('provider.id')}</label>
          <input
            id={ids.id}
            className="wf-input"
            data-testid="provider-id"
            value={draft.id}
            readOnly={builtIn}
            spellCheck={false}
            aria-invalid={shown.id !== undefined || undefined}
            onChange={(e) => patch({ id: e.target.value })}
          />
          <span className="wf-settings-hint">{t('provider.idHint')}</span>
          {problemText('id')}
        </div>
        <div className="wf-field">
          <label htmlFor={ids.label}>{t('provider.label')}</label>
          <input
            id={ids.label}
            className="wf-input"
            data-testid="provider-label"
            value={draft.label}
            aria-invalid={shown.label !== undefined || undefined}
            onChange={(e) => patch({ label: e.target.value })}
          />
          {problemText('label')}
        </div>
        <div className="wf-field">
          <label htmlFor={ids.kind}>{t('provider.kind')}</label>
          <select
            id={ids.kind}
            className="wf-select"
            data-testid="provider-kind"
            value={draft.kind}
            disabled={builtIn}
            onChange={(e) => {
              const kind = providerKindSchema.safeParse(e.target.value)
              if (!kind.success) return
              const baseUrl = baseUrlForKind(draft.baseUrl, kind.data)
              setKindNote(baseUrl !== draft.baseUrl ? t('provider.kindChanged', { url: baseUrl }) : null)
              patch({ kind: kind.data, baseUrl })
            }}
          >
            {providerKindSchema.options.map((kind) => (
              <option key={kind} value={kind}>
                {t(`provider.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        {isDemo ? null : (
          <div className="wf-field">
            <label htmlFor={ids.preset}>{t('provider.preset')}</label>
            <select
              id={ids.preset}
              className="wf-select"
              data-testid="provider-preset"
              value={presetOf(draft.baseUrl, draft.kind)}
              onChange={(e) => {
                const preset = BASE_URL_PRESETS.find((p) => p.id === e.target.value)
                setKindNote(null)
                if (preset !== undefined) patch({ kind: preset.kind, baseUrl: preset.baseUrl })
              }}
            >
              {BASE_URL_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
              <option value={CUSTOM_PRESET}>{t('provider.custom')}</option>
            </select>
          </div>
        )}
      </div>
      {builtIn ? (
        <p className="wf-settings-hint" data-testid="provider-built-in">
          {t('provider.demoFixed')}
        </p>
      ) : null}
      {kindNote !== null ? (
        <p className="wf-settings-ok" role="status" data-testid="provider-kind-note">
          {kindNote}
        </p>
      ) : null}
      {isDemo ? (
        <p className="wf-settings-hint">{t('provider.demoHint')}</p>
      ) : (
        <div className="wf-field">
          <label htmlFor={ids.url}>{t('provider.baseUrl')}</label>
          <input
            id={ids.url}
            className="wf-input"
            data-testid="provider-base-url"
            value={draft.baseUrl}
            spellCheck={false}
            inputMode="url"
            aria-invalid={shown.baseUrl !== undefined || undefined}
            onChange={(e) => patch({ baseUrl: e.target.value })}
          />
          {problemText('baseUrl')}
        </div>
      )}
      <div className="wf-field">
        <label htmlFor={ids.model}>{t('provider.model')}</label>
        <div className="wf-field-row">
          <input
            id={ids.model}
            className="wf-input"
            data-testid="provider-model"
            list={ids.list}
            value={draft.model}
            spellCheck={false}
            onChange={(e) => patch({ model: e.target.value })}
          />
          <datalist id={ids.list}>
            {draft.models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <Button onClick={() => void loadModels()} data-testid="provider-load-models">
            {t('provider.loadModels')}
          </Button>
        </div>
        {modelsNote !== null ? (
          <span
            className={modelsNote.ok ? 'wf-settings-ok' : 'wf-field-error'}
            role={modelsNote.ok ? 'status' : 'alert'}
          >
            {modelsNote.text}
          </span>
        ) : null}
      </div>
      {isDemo ? null : (
        <ApiKeyField
          value={draft.apiKey}
          locked={keysLocked}
          onChange={(apiKey) => patch({ apiKey })}
          onUnlock={onUnlock}
        />
      )}
      {!isDemo && offerLock ? (
        <div className="wf-lock-first" data-testid="lock-first">
          <span className="wf-settings-hint">{t('provider.lockFirst')}</span>
          <Button
            icon="shield"
            data-testid="lock-first-button"
            onClick={() => void onLockFirst().then((locked) => setLockedHere(locked))}
          >
            {t('provider.lockFirstButton')}
          </Button>
        </div>
      ) : null}
      {lockedHere ? (
        <span className="wf-settings-ok" role="status" data-testid="lock-first-done">
          {t('provider.lockFirstDone')}
        </span>
      ) : null}
      <Switch
        label={t('provider.stream')}
        hint={t('provider.streamHint')}
        checked={draft.stream}
        testId="provider-stream"
        onChange={(stream) => patch({ stream })}
      />
      {isDemo ? null : (
        <HeadersEditor
          headers={draft.headers}
          problem={shown.headers}
          onChange={(headers) => patch({ headers })}
        />
      )}
      <div className="wf-settings-actions">
        {probe !== null ? (
          probe.busy ? (
            <span role="status" data-testid="provider-test-result">
              {t('provider.testing')}
            </span>
          ) : (
            <span
              className={probe.ok ? 'wf-settings-ok' : 'wf-settings-error'}
              role={probe.ok ? 'status' : 'alert'}
              data-testid="provider-test-result"
              data-ok={probe.ok}
            >
              {probe.text}
            </span>
          )
        ) : null}
        {saveError !== null ? (
          <span className="wf-settings-error" role="alert">
            {saveError}
          </span>
        ) : null}
        <Button onClick={() => void test()} disabled={probe?.busy === true} data-testid="provider-test">
          {t('provider.test')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" data-testid="provider-save">
          {t('common.save')}
        </Button>
      </div>
    </form>
  )
}
