/**
 * The batch screen: a data file (`batch-data-input`, CSV or JSONL, read in the data worker), the
 * mapping of its columns to the flow's Input keys, concurrency, `batch-run` with a progress bar
 * and what is left (time, tokens, cost), then the results (BatchResults) with a failures filter,
 * a re-run of failed rows and the exports. File contents and results are shown as text only.
 */
import { useTranslation } from 'react-i18next'
import { BATCH_CONCURRENCY_RANGE } from '../../defaults.ts'
import { batchStore, useBatch, type BatchBudgetSpent, type BatchProgress } from '../../store/batchStore.ts'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import { formatDuration, formatNumber } from '../run/format.ts'
import { useServices } from '../services.ts'
import { BatchResults } from './BatchResults.tsx'

function Progress({ progress }: { progress: BatchProgress }) {
  const { t, i18n } = useTranslation('batch')
  const lang = i18n.language
  const budgetText = (spent: BatchBudgetSpent): string => {
    const parts: string[] = []
    if ((spent.maxRunTokens ?? 0) > 0)
      parts.push(
        t('budget.tokens', {
          used: formatNumber(spent.tokens, lang),
          max: formatNumber(spent.maxRunTokens ?? 0, lang),
        }),
      )
    if ((spent.maxRunCostUsd ?? 0) > 0)
      parts.push(
        spent.costUsd === null
          ? t('budget.usdUnknown', { max: formatNumber(spent.maxRunCostUsd ?? 0, lang) })
          : t('budget.usd', {
              used: formatNumber(spent.costUsd, lang),
              max: formatNumber(spent.maxRunCostUsd ?? 0, lang),
            }),
      )
    // Each part is a sentence of its own (with its full stop in either language).
    return parts.join(' ')
  }
  const { estimate } = progress
  const left = [
    estimate.msLeft === null ? null : t('left.time', { time: formatDuration(estimate.msLeft, lang) }),
    estimate.tokensLeft === null
      ? null
      : t('left.tokens', { tokens: formatNumber(estimate.tokensLeft, lang) }),
    estimate.costLeftUsd === null ? null : t('left.cost', { cost: formatNumber(estimate.costLeftUsd, lang) }),
  ].filter((x): x is string => x !== null)
  return (
    <div className="wf-batch__progress">
      <progress data-testid="batch-progress" value={progress.done} max={Math.max(1, progress.total)} />
      <p data-testid="batch-summary" role="status">
        {t('summary', {
          done: formatNumber(progress.done, lang),
          total: formatNumber(progress.total, lang),
          failed: formatNumber(progress.failed, lang),
          tokens: formatNumber(progress.tokens, lang),
        })}
        {progress.priced > 0 ? ` ${t('cost', { cost: formatNumber(progress.costUsd, lang) })}` : ''}
        {left.length > 0 && progress.done < progress.total ? ` · ${left.join(' · ')}` : ''}
      </p>
      {progress.endedEarly !== undefined ? (
        <p className="wf-batch__note" data-testid="batch-ended">
          {progress.endedEarly === 'stopped'
            ? t('stopped')
            : t('overBudget', { reason: progress.budget ? budgetText(progress.budget) : '' })}
        </p>
      ) : null}
    </div>
  )
}

function Mapping() {
  const { t } = useTranslation('batch')
  const { batch } = useServices()
  const keys = useBatch((s) => s.inputKeys)
  const mapping = useBatch((s) => s.mapping)
  const columns = useBatch((s) => s.file?.columns ?? [])
  const running = useBatch((s) => s.phase === 'running')
  if (keys.length === 0) return <p className="wf-batch__note">{t('noInputs')}</p>
  return (
    <fieldset className="wf-batch__mapping" disabled={running}>
      <legend>{t('mapping')}</legend>
      {keys.map((key) => (
        <label key={key} className="wf-batch__map">
          <code>{key}</code>
          <select
            data-testid={`batch-map-${key}`}
            value={mapping[key] ?? ''}
            onChange={(e) => batch?.setMapping(key, e.target.value === '' ? null : e.target.value)}
          >
            <option value="">{t('keepValue')}</option>
            {columns.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ))}
    </fieldset>
  )
}

export function BatchScreen() {
  const { t, i18n } = useTranslation('batch')
  const { batch } = useServices()
  const open = useBatch((s) => s.open)
  const phase = useBatch((s) => s.phase)
  const file = useBatch((s) => s.file)
  const progress = useBatch((s) => s.progress)
  const concurrency = useBatch((s) => s.concurrency)
  const onlyFailures = useBatch((s) => s.onlyFailures)
  const error = useBatch((s) => s.error)
  const running = phase === 'running'
  const failed = progress?.failed ?? 0
  const { min, max } = BATCH_CONCURRENCY_RANGE
  return (
    <Dialog
      open={open}
      title={t('title')}
      onClose={() => batch?.close()}
      closeLabel={t('close')}
      size="lg"
      testId="batch-screen"
    >
      <div className="wf-batch">
        <p className="wf-batch__note">{t('intro')}</p>
        {error !== null ? (
          <p className="wf-batch__error" role="alert" data-testid="batch-error">
            {error}
          </p>
        ) : null}
        <div className="wf-batch__controls">
          <label className="wf-batch__file">
            {t('dataFile')}
            <input
              type="file"
              data-testid="batch-data-input"
              accept=".csv,.tsv,.jsonl,.ndjson,.txt,text/csv,application/x-ndjson"
              disabled={running}
              onChange={(e) => {
                const chosen = e.target.files?.[0]
                e.target.value = ''
                if (chosen) void batch?.chooseFile(chosen)
              }}
            />
          </label>
          <label className="wf-batch__concurrency">
            {t('concurrency')}
            <input
              type="number"
              data-testid="batch-concurrency"
              min={min}
              max={max}
              value={concurrency}
              disabled={running}
              onChange={(e) => batch?.setConcurrency(Number(e.target.value))}
            />
          </label>
        </div>
        {phase === 'scanning' ? <p role="status">{t('scanning')}</p> : null}
        {file ? (
          <p className="wf-batch__note" data-testid="batch-file">
            {t('fileInfo', {
              name: file.name,
              rows: formatNumber(file.rows, i18n.language),
              columns: file.columns.join(', '),
              format: file.format.toUpperCase(),
            })}
            {file.problems > 0 ? ` ${t('problems', { count: file.problems })}` : ''}
          </p>
        ) : null}
        {file ? <Mapping /> : null}
        <div className="wf-batch__actions">
          <Button
            variant="primary"
            data-testid="batch-run"
            disabled={!file || running || phase === 'scanning'}
            onClick={() => batch?.run()}
          >
            {t('run', { count: file?.rows ?? 0 })}
          </Button>
          <Button data-testid="batch-stop" disabled={!running} onClick={() => batch?.stop()}>
            {t('stop')}
          </Button>
          <Button
            data-testid="batch-rerun-failed"
            disabled={running || failed === 0}
            onClick={() => batch?.rerunFailed()}
          >
            {t('rerunFailed', { count: failed })}
          </Button>
          <label className="wf-batch__filter">
            <input
              type="checkbox"
              data-testid="batch-only-failures"
              checked={onlyFailures}
              onChange={(e) => batchStore.setState({ onlyFailures: e.target.checked })}
            />
            {t('onlyFailures')}
          </label>
          <Button
            data-testid="batch-export-csv"
            disabled={!progress || running}
            onClick={() => batch?.exportResults('csv')}
          >
            {t('exportCsv')}
          </Button>
          <Button
            data-testid="batch-export-jsonl"
            disabled={!progress || running}
            onClick={() => batch?.exportResults('jsonl')}
          >
            {t('exportJsonl')}
          </Button>
        </div>
        {progress ? <Progress progress={progress} /> : null}
        {file ? <BatchResults /> : null}
      </div>
    </Dialog>
  )
}
