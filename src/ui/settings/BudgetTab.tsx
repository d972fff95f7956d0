/**
 * Budget (flow-control.md, "Whole-run budget, cost and degenerate text"): the default whole-run
 * limits every browser run gets unless its flow sets its own (the inspector, with nothing
 * selected), and the prices that win over the maintained price table. Empty limit = no limit.
 * Everything is checked on Save; anything out of range is refused inline and nothing is saved.
 */
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { RUN_MAX_COST_RANGE_USD, RUN_MAX_TOKENS_RANGE } from '../../defaults.ts'
import type { AppSettings } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'
import {
  checkPriceRows,
  priceRowDraft,
  PriceOverridesEditor,
  type PriceRowDraft,
} from './PriceOverridesEditor.tsx'
import { RangeField } from './RangeField.tsx'
import { checkOptionalRange } from './ranges.ts'

const text = (value: number | undefined): string => (value === undefined ? '' : String(value))

/** The limits as stored: a limit left empty is absent (no limit), never 0 written for it. */
function limitsOf(tokens: number | undefined, usd: number | undefined): AppSettings['runLimits'] {
  return {
    ...(tokens === undefined ? {} : { maxRunTokens: tokens }),
    ...(usd === undefined ? {} : { maxRunCostUsd: usd }),
  }
}

export function BudgetTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const settings = useSettings((s) => s)
  const [tokens, setTokens] = useState(() => text(settings.runLimits.maxRunTokens))
  const [usd, setUsd] = useState(() => text(settings.runLimits.maxRunCostUsd))
  const [rows, setRows] = useState<PriceRowDraft[]>(() =>
    settings.priceOverrides.map((row) => priceRowDraft(row)),
  )
  const [tried, setTried] = useState(false)
  const [status, setStatus] = useState<FormOutcome | null>(null)

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault()
    setTried(true)
    const maxTokens = checkOptionalRange(tokens, RUN_MAX_TOKENS_RANGE)
    const maxUsd = checkOptionalRange(usd, RUN_MAX_COST_RANGE_USD, false)
    const prices = checkPriceRows(rows)
    const refused = (maxTokens.ok ? 0 : 1) + (maxUsd.ok ? 0 : 1) + (prices.ok ? 0 : prices.refused)
    if (!maxTokens.ok || !maxUsd.ok || !prices.ok) {
      setStatus({ ok: false, text: t('protection.refused', { count: refused }) })
      return
    }
    try {
      await api.save({
        ...settings,
        runLimits: limitsOf(maxTokens.value, maxUsd.value),
        priceOverrides: prices.overrides,
      })
      setStatus({ ok: true, text: t('common.saved') })
    } catch (error) {
      setStatus({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  const edited = (apply: () => void) => {
    apply()
    setStatus(null)
  }

  return (
    <form className="wf-settings-form" onSubmit={(e) => void save(e)} noValidate data-testid="budget-form">
      <p className="wf-settings-hint">{t('budget.intro')}</p>
      <fieldset className="wf-settings-group">
        <legend>{t('budget.limitsGroup')}</legend>
        <RangeField
          label={t('budget.maxRunTokens.label')}
          hint={t('budget.maxRunTokens.hint')}
          range={RUN_MAX_TOKENS_RANGE}
          optional
          text={tokens}
          showProblem={tried}
          testId="settings-run-limit-tokens"
          onText={(value) => edited(() => setTokens(value))}
        />
        <RangeField
          label={t('budget.maxRunCostUsd.label')}
          hint={t('budget.maxRunCostUsd.hint')}
          unit={t('budget.usdUnit')}
          range={RUN_MAX_COST_RANGE_USD}
          optional
          integer={false}
          text={usd}
          showProblem={tried}
          testId="settings-run-limit-usd"
          onText={(value) => edited(() => setUsd(value))}
        />
      </fieldset>
      <PriceOverridesEditor
        rows={rows}
        providerIds={settings.providers.map((p) => p.id)}
        showProblems={tried}
        onChange={(next) => edited(() => setRows(next))}
      />
      <div className="wf-settings-actions">
        <FormStatus status={status} testId="budget-status" />
        <Button type="submit" variant="primary" data-testid="budget-save">
          {t('common.save')}
        </Button>
      </div>
    </form>
  )
}
