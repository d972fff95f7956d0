/** Extra HTTP headers of a provider. Values of secret-named headers are masked like the key. */
import { useTranslation } from 'react-i18next'
import { isSecretHeaderName } from '../../settings/secretHeaders.ts'
import { Button, IconButton } from '../kit/Button.tsx'
import { SecretInput } from './SecretInput.tsx'

export interface HeaderRow {
  key: string
  value: string
}

export interface HeadersEditorProps {
  headers: readonly HeaderRow[]
  problem?: string
  /** Every value is masked (an MCP server's: all its header values are secrets). */
  allSecret?: boolean
  testId?: string
  onChange(headers: HeaderRow[]): void
}

export function HeadersEditor({ headers, problem, allSecret = false, testId, onChange }: HeadersEditorProps) {
  const { t } = useTranslation('settings')
  const set = (index: number, patch: Partial<HeaderRow>): void =>
    onChange(headers.map((h, i) => (i === index ? { ...h, ...patch } : h)))
  return (
    <fieldset className="wf-settings-group" data-testid={testId ?? 'provider-headers'}>
      <legend>{t('provider.headers')}</legend>
      {headers.length === 0 ? <p className="wf-settings-hint">{t('provider.noHeaders')}</p> : null}
      {headers.map((header, index) => {
        const n = index + 1
        return (
          <div className="wf-header-row" key={index}>
            <label className="wf-compact-label">
              <span>{t('provider.headerName', { n })}</span>
              <input
                className="wf-input"
                value={header.key}
                spellCheck={false}
                onChange={(e) => set(index, { key: e.target.value })}
              />
            </label>
            <label className="wf-compact-label">
              <span>{t('provider.headerValue', { n })}</span>
              <SecretInput
                className="wf-input"
                type={allSecret || isSecretHeaderName(header.key) ? 'password' : 'text'}
                value={header.value}
                onValue={(value) => set(index, { value })}
              />
            </label>
            <IconButton
              icon="trash"
              size="sm"
              label={t('provider.removeHeader', { n })}
              onClick={() => onChange(headers.filter((_, i) => i !== index))}
            />
          </div>
        )
      })}
      {problem !== undefined ? (
        <span className="wf-field-error" role="alert">
          {t(`provider.problems.${problem}`)}
        </span>
      ) : null}
      <Button size="sm" icon="plus" onClick={() => onChange([...headers, { key: '', value: '' }])}>
        {t('provider.addHeader')}
      </Button>
    </fieldset>
  )
}
