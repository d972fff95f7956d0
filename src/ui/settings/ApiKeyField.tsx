/**
 * The API key input: always masked (type=password) unless the person presses the reveal
 * toggle. While keys are locked it is disabled and offers to unlock instead.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import { SecretInput } from './SecretInput.tsx'

export interface ApiKeyFieldProps {
  value: string
  locked: boolean
  onChange(value: string): void
  onUnlock(): void
}

export function ApiKeyField({ value, locked, onChange, onUnlock }: ApiKeyFieldProps) {
  const { t } = useTranslation('settings')
  const [revealed, setRevealed] = useState(false)
  const id = useId()
  const hintId = useId()
  return (
    <div className="wf-field">
      <label htmlFor={id}>{t('provider.apiKey')}</label>
      <div className="wf-field-row">
        <SecretInput
          id={id}
          className="wf-input"
          type={revealed && !locked ? 'text' : 'password'}
          data-testid="provider-api-key"
          disabled={locked}
          placeholder={locked ? t('provider.keyLockedPlaceholder') : t('provider.keyPlaceholder')}
          aria-describedby={hintId}
          value={locked ? '' : value}
          onValue={onChange}
        />
        {locked ? (
          <Button onClick={onUnlock} data-testid="provider-unlock">
            {t('keys.unlock')}
          </Button>
        ) : (
          <Button
            aria-pressed={revealed}
            data-testid="provider-api-key-reveal"
            onClick={() => setRevealed(!revealed)}
          >
            {revealed ? t('provider.hideKey') : t('provider.showKey')}
          </Button>
        )}
      </div>
      <span id={hintId} className="wf-settings-hint">
        {locked ? t('provider.keyLockedHint') : t('provider.keyHint')}
      </span>
    </div>
  )
}
