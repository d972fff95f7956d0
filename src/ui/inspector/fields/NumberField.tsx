/**
 * A number inside the field's range. Out-of-range or malformed input is REFUSED, never clamped:
 * the typed text stays, a message says what is allowed, and the config keeps its last valid value.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { NumberRange } from '../../../defaults.ts'
import type { FieldProps } from './types.ts'

export type NumberVerdict =
  { ok: true; value: number | undefined } | { ok: false; key: string; values?: Record<string, number> }

/** Checks typed text against a range; '' means "inherit" for optional fields. */
export function checkNumber(text: string, range: NumberRange | undefined, optional: boolean): NumberVerdict {
  const trimmed = text.trim()
  if (trimmed === '')
    return optional ? { ok: true, value: undefined } : { ok: false, key: 'inspector.required' }
  const n = Number(trimmed)
  if (!Number.isFinite(n)) return { ok: false, key: 'inspector.notANumber' }
  if (range) {
    if (n < range.min || n > range.max)
      return { ok: false, key: 'inspector.outOfRange', values: { min: range.min, max: range.max } }
    if (range.step !== undefined && Number.isInteger(range.step) && !Number.isInteger(n)) {
      return { ok: false, key: 'inspector.wholeNumber' }
    }
  }
  return { ok: true, value: n }
}

export function NumberField({ inputId, describedBy, value, field, onChange, onRefuse, issue }: FieldProps) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<string | null>(null)
  const [refused, setRefused] = useState(false)
  const shown = draft ?? (typeof value === 'number' ? String(value) : '')
  const range = field.range

  return (
    <div className="wf-number">
      <input
        id={inputId}
        className="wf-input"
        type="text"
        inputMode="decimal"
        value={shown}
        placeholder={field.optional ? t('inspector.inheritShort') : undefined}
        title={field.optional ? t('inspector.inherit') : undefined}
        aria-describedby={describedBy}
        aria-invalid={refused || issue ? true : undefined}
        onChange={(e) => {
          const text = e.target.value
          setDraft(text)
          const verdict = checkNumber(text, range, field.optional === true)
          if (verdict.ok) {
            setRefused(false)
            onRefuse?.(null)
            onChange(verdict.value)
          } else {
            setRefused(true)
            onRefuse?.(t(verdict.key, verdict.values))
          }
        }}
        onBlur={() => {
          if (!refused) setDraft(null)
        }}
      />
      {field.unit ? <span className="wf-number__unit">{t(`inspector.unit.${field.unit}`)}</span> : null}
      {range ? (
        <span className="wf-number__range">{t('inspector.range', { min: range.min, max: range.max })}</span>
      ) : null}
    </div>
  )
}
