/**
 * A number inside the field's range. Out-of-range or malformed input is REFUSED, never clamped:
 * the typed text stays, a message says what is allowed, and the config keeps its last valid value.
 * Timeouts are typed in seconds and stored in milliseconds, as in Settings.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { NumberRange } from '../../../defaults.ts'
import { displayScale, displayUnit, inheritSentence } from './inherit.ts'
import type { FieldProps } from './types.ts'

export type NumberVerdict =
  { ok: true; value: number | undefined } | { ok: false; key: string; values?: Record<string, number> }

/**
 * Checks typed text against a range; '' means "inherit" for optional fields. `scale` turns the
 * typed unit into the stored one (seconds typed, milliseconds stored); the range is stored units.
 */
export function checkNumber(
  text: string,
  range: NumberRange | undefined,
  optional: boolean,
  scale = 1,
): NumberVerdict {
  const trimmed = text.trim()
  if (trimmed === '')
    return optional ? { ok: true, value: undefined } : { ok: false, key: 'inspector:required' }
  const typed = Number(trimmed)
  if (!Number.isFinite(typed)) return { ok: false, key: 'inspector:notANumber' }
  // 1.2 s is 1200 ms, not 1199.9999999999998.
  const n = scale === 1 ? typed : Number((typed * scale).toFixed(6))
  if (range) {
    if (n < range.min || n > range.max) {
      return {
        ok: false,
        key: 'inspector:outOfRange',
        values: { min: range.min / scale, max: range.max / scale },
      }
    }
    if (range.step !== undefined && Number.isInteger(range.step) && !Number.isInteger(n)) {
      return { ok: false, key: 'inspector:wholeNumber' }
    }
  }
  return { ok: true, value: n }
}

export function NumberField({
  inputId,
  describedBy,
  value,
  field,
  inherited,
  onChange,
  onRefuse,
  issue,
}: FieldProps) {
  const { t, i18n } = useTranslation()
  const [draft, setDraft] = useState<string | null>(null)
  const [refused, setRefused] = useState(false)
  const scale = displayScale(field)
  const unit = displayUnit(field)
  const shown = draft ?? (typeof value === 'number' ? String(value / scale) : '')
  const range = field.range
  // An empty inheritable field shows what it inherits, greyed, where the number would be.
  const placeholder =
    inherited && typeof inherited.value === 'number'
      ? String(inherited.value / scale)
      : field.optional
        ? t('inspector:inheritShort')
        : undefined

  return (
    <div className="wf-number">
      <input
        id={inputId}
        className="wf-input"
        type="text"
        inputMode="decimal"
        value={shown}
        placeholder={placeholder}
        title={inherited ? inheritSentence(inherited, false, field, t, i18n.language) : undefined}
        aria-describedby={describedBy}
        aria-invalid={refused || issue ? true : undefined}
        onChange={(e) => {
          const text = e.target.value
          setDraft(text)
          const verdict = checkNumber(text, range, field.optional === true, scale)
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
      {unit ? <span className="wf-number__unit">{t(`inspector:unit.${unit}`)}</span> : null}
      {range ? (
        <span className="wf-number__range">
          {t('inspector:range', { min: range.min / scale, max: range.max / scale })}
        </span>
      ) : null}
    </div>
  )
}
