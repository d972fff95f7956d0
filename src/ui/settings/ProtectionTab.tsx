/**
 * Runtime protection (issue 4, item 6): the global defaults of the agent guard and watchdogs.
 * Nodes may override them (node > global > defaults). Every number is checked against its range
 * from defaults.ts on Save; anything out of range is refused inline and nothing is saved.
 */
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  AGENT_MAX_ITERATIONS_RANGE,
  AGENT_TOKEN_BUDGET_RANGE,
  LOOP_TRIP_AT_RANGE,
  PROVIDER_CALL_DEADLINE_RANGE_MS,
  APPROVAL_TIMEOUT_RANGE_MS,
  SANDBOX_TIMEOUT_RANGE_MS,
  TEMPLATE_MAX_RESOLVED_RANGE_CHARS,
  TOOL_TIMEOUT_RANGE_MS,
  type NumberRange,
} from '../../defaults.ts'
import { defaultRuntimeProtection, type AppSettings } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { RangeField } from './RangeField.tsx'
import { checkRange } from './ranges.ts'
import { Switch } from './Switch.tsx'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'

type Protection = AppSettings['runtimeProtection']
type NumberKey =
  | 'loopDetectionThreshold'
  | 'maxIterations'
  | 'maxTokenBudget'
  | 'sandboxTimeoutMs'
  | 'toolTimeoutMs'
  | 'modelCallDeadlineMs'
  | 'approvalTimeoutMs'
  | 'templateMaxChars'
type FlagKey = 'loopDetectionEnabled' | 'progressAware' | 'cycleDetection' | 'textLoopDetection'

const MS_PER_S = 1000

/** Each number field: its range (in stored units) and the factor from typed to stored units. */
const NUMBER_FIELDS: ReadonlyArray<{ key: NumberKey; range: NumberRange; scale: number; unit: string }> = [
  { key: 'loopDetectionThreshold', range: LOOP_TRIP_AT_RANGE, scale: 1, unit: '' },
  { key: 'maxIterations', range: AGENT_MAX_ITERATIONS_RANGE, scale: 1, unit: '' },
  { key: 'maxTokenBudget', range: AGENT_TOKEN_BUDGET_RANGE, scale: 1, unit: '' },
  { key: 'sandboxTimeoutMs', range: SANDBOX_TIMEOUT_RANGE_MS, scale: MS_PER_S, unit: 's' },
  { key: 'toolTimeoutMs', range: TOOL_TIMEOUT_RANGE_MS, scale: MS_PER_S, unit: 's' },
  { key: 'modelCallDeadlineMs', range: PROVIDER_CALL_DEADLINE_RANGE_MS, scale: MS_PER_S, unit: 's' },
  { key: 'approvalTimeoutMs', range: APPROVAL_TIMEOUT_RANGE_MS, scale: MS_PER_S, unit: 's' },
  { key: 'templateMaxChars', range: TEMPLATE_MAX_RESOLVED_RANGE_CHARS, scale: 1, unit: '' },
]
const FLAGS: readonly FlagKey[] = [
  'loopDetectionEnabled',
  'progressAware',
  'cycleDetection',
  'textLoopDetection',
]

function toTexts(p: Protection): Record<NumberKey, string> {
  const out = {} as Record<NumberKey, string>
  for (const f of NUMBER_FIELDS) out[f.key] = String(p[f.key] / f.scale)
  return out
}

function flagsOf(p: Protection): Record<FlagKey, boolean> {
  return {
    loopDetectionEnabled: p.loopDetectionEnabled,
    progressAware: p.progressAware,
    cycleDetection: p.cycleDetection,
    textLoopDetection: p.textLoopDetection,
  }
}

export function ProtectionTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const settings = useSettings((s) => s)
  const [texts, setTexts] = useState(() => toTexts(settings.runtimeProtection))
  const [flags, setFlags] = useState(() => flagsOf(settings.runtimeProtection))
  const [tried, setTried] = useState(false)
  const [status, setStatus] = useState<FormOutcome | null>(null)

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault()
    setTried(true)
    const next: Protection = { ...settings.runtimeProtection, ...flags }
    let refused = 0
    for (const f of NUMBER_FIELDS) {
      const check = checkRange(texts[f.key], f.range, f.scale)
      if (check.ok) next[f.key] = check.value
      else refused += 1
    }
    if (refused > 0) {
      setStatus({ ok: false, text: t('protection.refused', { count: refused }) })
      return
    }
    try {
      await api.save({ ...settings, runtimeProtection: next })
      setStatus({ ok: true, text: t('common.saved') })
    } catch (error) {
      setStatus({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  function restoreDefaults(): void {
    const defaults = defaultRuntimeProtection()
    setTexts(toTexts(defaults))
    setFlags(flagsOf(defaults))
    setStatus(null)
  }

  return (
    <form
      className="wf-settings-form"
      onSubmit={(e) => void save(e)}
      noValidate
      data-testid="protection-form"
    >
      <p className="wf-settings-hint">{t('protection.intro')}</p>
      <fieldset className="wf-settings-group">
        <legend>{t('protection.loopGroup')}</legend>
        {FLAGS.map((key) => (
          <Switch
            key={key}
            label={t(`protection.${key}.label`)}
            hint={t(`protection.${key}.hint`)}
            checked={flags[key]}
            testId={`protection-${key}`}
            onChange={(checked) => setFlags({ ...flags, [key]: checked })}
          />
        ))}
      </fieldset>
      <fieldset className="wf-settings-group">
        <legend>{t('protection.limitsGroup')}</legend>
        {NUMBER_FIELDS.map((f) => (
          <RangeField
            key={f.key}
            label={t(`protection.${f.key}.label`)}
            hint={t(`protection.${f.key}.hint`)}
            range={f.range}
            scale={f.scale}
            unit={f.unit}
            text={texts[f.key]}
            showProblem={tried}
            testId={`protection-${f.key}`}
            onText={(text) => {
              setTexts({ ...texts, [f.key]: text })
              setStatus(null)
            }}
          />
        ))}
      </fieldset>
      <div className="wf-settings-actions">
        <FormStatus status={status} testId="protection-status" />
        <Button onClick={restoreDefaults}>{t('protection.defaults')}</Button>
        <Button type="submit" variant="primary" data-testid="protection-save">
          {t('common.save')}
        </Button>
      </div>
    </form>
  )
}
