/** Provider picker ('' = the default provider from settings) and model name with suggestions. */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useSettings } from '../../../store/settingsStore.ts'
import { providerLabel } from '../../kit/providerLabel.ts'
import type { FieldProps } from './types.ts'

export function ProviderField({ inputId, describedBy, value, onChange }: FieldProps) {
  const { t } = useTranslation()
  const providers = useSettings((s) => s.providers)
  const defaultId = useSettings((s) => s.defaultProviderId)
  const current = typeof value === 'string' ? value : ''
  const defaultProvider = providers.find((p) => p.id === defaultId)
  const defaultLabel = defaultProvider ? providerLabel(defaultProvider, t) : defaultId
  const known = current === '' || providers.some((p) => p.id === current)
  return (
    <select
      id={inputId}
      className="wf-select"
      value={current}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
    >
      <option value="">{t('inspector:defaultProvider', { name: defaultLabel })}</option>
      {!known ? <option value={current}>{t('inspector:missingProvider', { id: current })}</option> : null}
      {providers.map((p) => (
        <option key={p.id} value={p.id}>
          {providerLabel(p, t)}
        </option>
      ))}
    </select>
  )
}

export function ModelField({ inputId, describedBy, value, config, field, onChange }: FieldProps) {
  const { t } = useTranslation()
  const listId = useId()
  const providers = useSettings((s) => s.providers)
  const defaultId = useSettings((s) => s.defaultProviderId)
  const chosen =
    typeof config['provider'] === 'string' && config['provider'] !== '' ? config['provider'] : defaultId
  const provider = providers.find((p) => p.id === chosen)
  const models = provider?.models ?? []
  return (
    <>
      <input
        id={inputId}
        className="wf-input"
        type="text"
        list={listId}
        value={typeof value === 'string' ? value : ''}
        placeholder={provider?.model ? t('inspector:defaultModel', { model: provider.model }) : undefined}
        aria-describedby={describedBy}
        spellCheck={false}
        onChange={(e) => onChange(field.optional && e.target.value === '' ? undefined : e.target.value)}
      />
      <datalist id={listId}>
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
    </>
  )
}
