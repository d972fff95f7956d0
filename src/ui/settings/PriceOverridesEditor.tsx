/**
 * The price overrides of the Budget tab: one row per provider and model, each price typed in US
 * dollars per million tokens. The rows are drafts (texts) until the tab saves; `checkPriceRows`
 * turns them into settings or says which rows are wrong, so nothing half-typed is stored.
 */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { PRICE_OVERRIDE_MODEL_MAX_CHARS, PRICE_PER_MTOK_RANGE_USD } from '../../defaults.ts'
import { ANY_PROVIDER, type PriceOverride } from '../../settings/schema.ts'
import { Button } from '../kit/Button.tsx'
import { RangeField } from './RangeField.tsx'
import { checkOptionalRange, checkRange } from './ranges.ts'

export interface PriceRowDraft {
  /** Only React's key: rows have no id of their own and may be reordered by removals. */
  key: number
  provider: string
  model: string
  input: string
  output: string
  cached: string
}

let nextKey = 0

export function priceRowDraft(row?: PriceOverride): PriceRowDraft {
  nextKey += 1
  return {
    key: nextKey,
    provider: row?.provider ?? ANY_PROVIDER,
    model: row?.model ?? '',
    input: row === undefined ? '' : String(row.inputUsdPerMTok),
    output: row === undefined ? '' : String(row.outputUsdPerMTok),
    cached: row?.cachedInputUsdPerMTok === undefined ? '' : String(row.cachedInputUsdPerMTok),
  }
}

export type ModelProblem = 'required' | 'tooLong' | 'twice'

/** What is wrong with a row's model: none, too long, or a provider and model named twice. */
export function modelProblem(rows: readonly PriceRowDraft[], index: number): ModelProblem | undefined {
  const row = rows[index]
  if (row === undefined) return undefined
  const model = row.model.trim()
  if (model === '') return 'required'
  if (model.length > PRICE_OVERRIDE_MODEL_MAX_CHARS) return 'tooLong'
  // Only the first of two rows would ever be used: the second is refused rather than ignored.
  const earlier = rows.slice(0, index).some((r) => r.provider === row.provider && r.model.trim() === model)
  return earlier ? 'twice' : undefined
}

/** The rows as settings, or the number of rows with a problem. */
export function checkPriceRows(
  rows: readonly PriceRowDraft[],
): { ok: true; overrides: PriceOverride[] } | { ok: false; refused: number } {
  const overrides: PriceOverride[] = []
  let refused = 0
  rows.forEach((row, index) => {
    const input = checkRange(row.input, PRICE_PER_MTOK_RANGE_USD, 1, false)
    const output = checkRange(row.output, PRICE_PER_MTOK_RANGE_USD, 1, false)
    const cached = checkOptionalRange(row.cached, PRICE_PER_MTOK_RANGE_USD, false)
    if (modelProblem(rows, index) !== undefined || !input.ok || !output.ok || !cached.ok) {
      refused += 1
      return
    }
    overrides.push({
      provider: row.provider,
      model: row.model.trim(),
      inputUsdPerMTok: input.value,
      outputUsdPerMTok: output.value,
      ...(cached.value === undefined ? {} : { cachedInputUsdPerMTok: cached.value }),
    })
  })
  return refused === 0 ? { ok: true, overrides } : { ok: false, refused }
}

interface EditorProps {
  rows: readonly PriceRowDraft[]
  /** The settings' provider ids, offered besides "any provider". */
  providerIds: readonly string[]
  showProblems: boolean
  onChange(rows: PriceRowDraft[]): void
}

export function PriceOverridesEditor({ rows, providerIds, showProblems, onChange }: EditorProps) {
  const { t } = useTranslation('settings')
  const update = (index: number, patch: Partial<PriceRowDraft>): void =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)))
  return (
    <fieldset className="wf-settings-group" data-testid="price-overrides">
      <legend>{t('budget.pricesGroup')}</legend>
      <p className="wf-settings-hint">{t('budget.pricesIntro')}</p>
      {rows.length === 0 ? <p className="wf-settings-hint">{t('budget.noPrices')}</p> : null}
      {rows.map((row, index) => (
        <PriceRow
          key={row.key}
          row={row}
          index={index}
          providerIds={providerIds}
          problem={showProblems || row.model !== '' ? modelProblem(rows, index) : undefined}
          showProblems={showProblems}
          onPatch={(patch) => update(index, patch)}
          onRemove={() => onChange(rows.filter((_, i) => i !== index))}
        />
      ))}
      <div className="wf-settings-actions">
        <Button
          icon="plus"
          data-testid="price-override-add"
          onClick={() => onChange([...rows, priceRowDraft()])}
        >
          {t('budget.addPrice')}
        </Button>
      </div>
    </fieldset>
  )
}

interface RowProps {
  row: PriceRowDraft
  index: number
  providerIds: readonly string[]
  problem: ModelProblem | undefined
  showProblems: boolean
  onPatch(patch: Partial<PriceRowDraft>): void
  onRemove(): void
}

function PriceRow({ row, index, providerIds, problem, showProblems, onPatch, onRemove }: RowProps) {
  const { t } = useTranslation('settings')
  const base = useId()
  // A row may name a provider that was removed since: it stays offered, so it is not rewritten.
  const ids = [ANY_PROVIDER, ...providerIds.filter((id) => id !== ANY_PROVIDER)]
  if (!ids.includes(row.provider)) ids.push(row.provider)
  const number = n(t)
  return (
    <div
      className="wf-settings-group wf-price-row"
      role="group"
      aria-label={t('budget.rowLabel', { n: index + 1 })}
      data-testid="price-override-row"
    >
      <div className="wf-field">
        <label htmlFor={`${base}-provider`}>{t('budget.provider')}</label>
        <select
          id={`${base}-provider`}
          className="wf-select"
          data-testid="price-override-provider"
          value={row.provider}
          onChange={(e) => onPatch({ provider: e.target.value })}
        >
          {ids.map((id) => (
            <option key={id} value={id}>
              {id === ANY_PROVIDER ? t('budget.anyProvider') : id}
            </option>
          ))}
        </select>
      </div>
      <div className="wf-field">
        <label htmlFor={`${base}-model`}>{t('budget.model')}</label>
        <input
          id={`${base}-model`}
          className="wf-input"
          data-testid="price-override-model"
          spellCheck={false}
          value={row.model}
          aria-invalid={problem !== undefined || undefined}
          onChange={(e) => onPatch({ model: e.target.value })}
        />
        {problem !== undefined ? (
          <span className="wf-field-error" role="alert">
            {t(`budget.modelProblem.${problem}`, { max: PRICE_OVERRIDE_MODEL_MAX_CHARS })}
          </span>
        ) : null}
      </div>
      <RangeField {...number('input', row.input, showProblems)} onText={(input) => onPatch({ input })} />
      <RangeField {...number('output', row.output, showProblems)} onText={(output) => onPatch({ output })} />
      <RangeField
        {...number('cached', row.cached, showProblems)}
        optional
        onText={(cached) => onPatch({ cached })}
      />
      <Button size="sm" variant="danger" icon="trash" data-testid="price-override-remove" onClick={onRemove}>
        {t('budget.removePrice', { n: index + 1 })}
      </Button>
    </div>
  )
}

/** The shared props of a row's three price fields (US dollars per million tokens, decimals). */
function n(t: (key: string) => string) {
  return (field: 'input' | 'output' | 'cached', text: string, showProblem: boolean) => ({
    label: t(`budget.${field}Price`),
    unit: t('budget.perMTokUnit'),
    range: PRICE_PER_MTOK_RANGE_USD,
    integer: false,
    text,
    showProblem,
    testId: `price-override-${field}`,
  })
}
