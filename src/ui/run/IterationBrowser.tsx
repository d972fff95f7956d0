/**
 * A loop body node's iterations in the inspector's run details: step through them and see each
 * one's status, inputs, output and error (the run store's IterationRecord). Text only.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IterationRecord } from '../../store/runStoreReducer.ts'
import { formatValue } from './format.ts'
import { LongText } from './OutputView.tsx'

export function IterationBrowser({ iterations }: { iterations: readonly IterationRecord[] }) {
  const { t } = useTranslation('run')
  const [picked, setPicked] = useState<number | null>(null)
  // Iterations that have not started yet are holes in the array.
  const list = iterations.filter((r): r is IterationRecord => r !== undefined)
  if (list.length === 0) return null
  const at = Math.min(Math.max(picked ?? list.length - 1, 0), list.length - 1)
  const record = list[at] as IterationRecord
  return (
    <details className="wf-run-details__section" open data-testid="loop-iterations" data-count={list.length}>
      <summary>{t('iterations.title', { count: list.length })}</summary>
      <div className="wf-run-iterations__nav">
        <button
          type="button"
          data-testid="loop-iteration-prev"
          disabled={at === 0}
          onClick={() => setPicked(at - 1)}
          aria-label={t('iterations.previous')}
        >
          ‹
        </button>
        <span data-testid="loop-iteration-index">
          {t('iterations.position', { index: record.iteration, count: list.length })}
        </span>
        <button
          type="button"
          data-testid="loop-iteration-next"
          disabled={at === list.length - 1}
          onClick={() => setPicked(at + 1)}
          aria-label={t('iterations.next')}
        >
          ›
        </button>
      </div>
      <div data-testid="loop-iteration" data-iteration={record.iteration} data-status={record.status}>
        <span className={`wf-run-chip wf-run-chip--${record.status}`}>{t(`status.${record.status}`)}</span>
        {record.inputs !== undefined ? (
          <div data-testid="loop-iteration-inputs">
            <strong>{t('details.inputs')}</strong>
            <LongText text={formatValue(record.inputs)} />
          </div>
        ) : null}
        {record.output !== undefined ? (
          <div data-testid="loop-iteration-output">
            <strong>{t('details.output')}</strong>
            <LongText text={formatValue(record.output)} />
          </div>
        ) : null}
        {record.error ? (
          <div
            className="wf-run-details__error"
            data-testid="loop-iteration-error"
            data-code={record.error.code}
          >
            <strong>{t('details.error')}</strong> {record.error.message}
          </div>
        ) : null}
        {record.skipReason ? <p className="wf-run-muted">{record.skipReason}</p> : null}
      </div>
    </details>
  )
}
