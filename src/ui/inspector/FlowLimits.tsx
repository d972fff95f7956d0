/**
 * "Run budget for this flow" (flow-control.md, "Whole-run budget, cost and degenerate text"):
 * the flow's own whole-run limits, `metadata.limits`, which win over the settings' defaults
 * (Settings, Budget). Empty clears a limit (the default applies); 0 means no limit for this
 * flow even when the settings set one. Each valid keystroke is written through the flow store
 * (one undo step per typing burst); a text out of range is shown with its problem and not written.
 */
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RUN_MAX_COST_RANGE_USD, RUN_MAX_TOKENS_RANGE, type NumberRange } from '../../defaults.ts'
import type { FlowMetadata } from '../../engine/index.ts'
import { flowStore, useFlowStore, useReadOnly } from '../../store/flowStore.ts'
import { checkOptionalRange, inputStep, type RangeProblem } from '../settings/ranges.ts'

type LimitKey = 'maxRunTokens' | 'maxRunCostUsd'
type Limits = NonNullable<FlowMetadata['limits']>

const FIELDS: ReadonlyArray<{ key: LimitKey; range: NumberRange; integer: boolean; testId: string }> = [
  { key: 'maxRunTokens', range: RUN_MAX_TOKENS_RANGE, integer: true, testId: 'flow-limit-tokens' },
  { key: 'maxRunCostUsd', range: RUN_MAX_COST_RANGE_USD, integer: false, testId: 'flow-limit-usd' },
]

export function FlowLimits() {
  const { t } = useTranslation()
  const limits = useFlowStore((s) => s.metadata?.limits)
  const present = useFlowStore((s) => s.metadata !== null)
  const readOnly = useReadOnly()
  if (!present) return null
  return (
    <fieldset className="wf-flow-limits" data-testid="flow-limits">
      <legend>{t('inspector.flowLimits.title')}</legend>
      <p className="wf-section-hint">{t('inspector.flowLimits.hint')}</p>
      {FIELDS.map((field) => (
        <LimitField
          key={field.key}
          limitKey={field.key}
          range={field.range}
          integer={field.integer}
          testId={field.testId}
          limits={limits}
          readOnly={readOnly}
        />
      ))}
    </fieldset>
  )
}

interface LimitFieldProps {
  limitKey: LimitKey
  range: NumberRange
  integer: boolean
  testId: string
  limits: Limits | undefined
  readOnly: boolean
}

function LimitField({ limitKey, range, integer, testId, limits, readOnly }: LimitFieldProps) {
  const { t, i18n } = useTranslation()
  const stored = limits?.[limitKey]
  const [text, setText] = useState(stored === undefined ? '' : String(stored))
  const [problem, setProblem] = useState<RangeProblem | null>(null)
  const id = useId()
  const problemId = useId()

  // Undo, redo or another tab changed the limit: show the stored value unless the text says it.
  useEffect(() => {
    setText((current) => {
      const check = checkOptionalRange(current, range, integer)
      return check.ok && check.value === stored ? current : stored === undefined ? '' : String(stored)
    })
    setProblem(null)
  }, [stored, range, integer])

  function onText(next: string, unparsed: boolean): void {
    // A number field reports '' for text it cannot parse ("1e" half typed, "1,000"): that is not
    // "no limit", so the stored limit stays and the problem is shown.
    if (unparsed) {
      setProblem('notNumber')
      return
    }
    setText(next)
    const check = checkOptionalRange(next, range, integer)
    if (!check.ok) {
      setProblem(check.problem)
      return
    }
    setProblem(null)
    const others = { ...limits }
    delete others[limitKey]
    const patch: Limits = check.value === undefined ? others : { ...others, [limitKey]: check.value }
    flowStore.getState().actions.setRunLimits(patch, testId)
  }

  const numbers = new Intl.NumberFormat(i18n.language)
  const bounds = { min: numbers.format(range.min), max: numbers.format(range.max) }
  return (
    <div className="wf-field">
      <label htmlFor={id}>{t(`inspector.flowLimits.${limitKey}`)}</label>
      <input
        id={id}
        className="wf-input wf-input--number"
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={range.min}
        max={range.max}
        step={inputStep(range, integer)}
        value={text}
        placeholder={t('inspector.flowLimits.placeholder')}
        disabled={readOnly}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? problemId : undefined}
        data-testid={testId}
        onChange={(e) => onText(e.target.value, e.target.validity.badInput)}
      />
      {problem !== null ? (
        <span id={problemId} className="wf-field-error" role="alert">
          {t(`inspector.flowLimits.problem.${problem}`, bounds)}
        </span>
      ) : null}
    </div>
  )
}
