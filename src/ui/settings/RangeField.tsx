/** A labelled number field whose value is checked against a range; the problem shows inline. */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { NumberRange } from '../../defaults.ts'
import { checkOptionalRange, checkRange, displayRange, inputStep } from './ranges.ts'

export interface RangeFieldProps {
  label: string
  /** Unit shown after the range, e.g. "s"; '' for none. */
  unit?: string
  hint?: string
  range: NumberRange
  scale?: number
  text: string
  /** True once the person tried to save: problems are shown from then on. */
  showProblem: boolean
  onText(text: string): void
  testId?: string
  /** Empty text is a value (none, e.g. no limit) rather than a problem; unscaled fields only. */
  optional?: boolean
  /** False for amounts such as US dollars: decimals are allowed, in the range's steps. */
  integer?: boolean
}

export function RangeField({
  label,
  unit = '',
  hint,
  range,
  scale = 1,
  text,
  showProblem,
  onText,
  testId,
  optional = false,
  integer = true,
}: RangeFieldProps) {
  const { t, i18n } = useTranslation('settings')
  const id = useId()
  const problemId = useId()
  const hintId = useId()
  const numbers = new Intl.NumberFormat(i18n.language)
  const limits = displayRange(range, scale)
  const shown = { min: numbers.format(limits.min), max: numbers.format(limits.max) }
  const check = optional ? checkOptionalRange(text, range, integer) : checkRange(text, range, scale, integer)
  const problem = showProblem && !check.ok ? check.problem : null
  // The unit is appended with its space, so unitless ranges read "2–10", not "2–10 ".
  const unitText = unit === '' ? '' : ` ${unit}`
  const rangeText = t('range.allowed', { min: shown.min, max: shown.max, unit: unitText })
  return (
    <div className="wf-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="wf-input wf-input--number"
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={limits.min}
        max={limits.max}
        step={inputStep(range, integer, scale)}
        value={text}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? `${problemId} ${hintId}` : hintId}
        data-testid={testId}
        onChange={(e) => onText(e.target.value)}
      />
      <span id={hintId} className="wf-settings-hint">
        {hint === undefined ? rangeText : `${hint} ${rangeText}`}
      </span>
      {problem !== null ? (
        <span id={problemId} className="wf-field-error" role="alert">
          {t(`range.${problem}`, { min: shown.min, max: shown.max, unit: unitText })}
        </span>
      ) : null}
    </div>
  )
}
