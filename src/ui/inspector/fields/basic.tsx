/** One-line text, checkbox and select fields. */
import { useTranslation } from 'react-i18next'
import type { FieldProps } from './types.ts'

export function TextField({ inputId, describedBy, value, field, onChange, issue }: FieldProps) {
  const { t } = useTranslation()
  return (
    <input
      id={inputId}
      className="wf-input"
      type="text"
      value={typeof value === 'string' ? value : ''}
      placeholder={field.optional ? t('inspector:inherit') : undefined}
      aria-describedby={describedBy}
      aria-invalid={issue ? true : undefined}
      spellCheck={false}
      onChange={(e) => onChange(field.optional && e.target.value === '' ? undefined : e.target.value)}
    />
  )
}

/** Checked as the node runs: its own value, else the inherited one. */
export function BooleanField({ inputId, describedBy, value, inherited, onChange }: FieldProps) {
  const checked = typeof value === 'boolean' ? value : inherited?.value === true
  return (
    <input
      id={inputId}
      className="wf-checkbox"
      type="checkbox"
      checked={checked}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.checked)}
    />
  )
}

export function SelectField({ inputId, describedBy, value, field, onChange }: FieldProps) {
  const { t } = useTranslation()
  const current = typeof value === 'string' ? value : ''
  const options = field.options ?? []
  const known = options.some((o) => o.value === current)
  return (
    <select
      id={inputId}
      className="wf-select"
      value={current}
      aria-describedby={describedBy}
      onChange={(e) => onChange(field.optional && e.target.value === '' ? undefined : e.target.value)}
    >
      {field.optional ? <option value="">{t('inspector:inherit')}</option> : null}
      {!known && current !== '' ? <option value={current}>{current}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {t(o.labelKey)}
        </option>
      ))}
    </select>
  )
}
