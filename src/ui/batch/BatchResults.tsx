/**
 * The results table: one `batch-row` per data row (`data-status`: pending, running, success,
 * error, cancelled, stopped, skipped) with its outputs, tokens, cost and error, all as text.
 * Virtualised with @tanstack/react-virtual (a maintained, headless windowing library that
 * measures nothing it does not draw): a 10,000-row batch draws the rows in view plus
 * BATCH_TABLE_OVERSCAN_ROWS, so the page's work per update does not grow with the batch.
 */
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useVirtualizer } from '@tanstack/react-virtual'
import { BATCH_CELL_TEXT_MAX_CHARS, BATCH_ROW_HEIGHT_PX, BATCH_TABLE_OVERSCAN_ROWS } from '../../defaults.ts'
import { listedRows, rowState, useBatch, type BatchState } from '../../store/batchStore.ts'
import type { RowResult } from '../../batch/result.ts'
import { formatNumber } from '../run/format.ts'
import { useServices } from '../services.ts'

function clip(text: string): string {
  return text.length > BATCH_CELL_TEXT_MAX_CHARS ? `${text.slice(0, BATCH_CELL_TEXT_MAX_CHARS)}…` : text
}

function outputsText(result: RowResult | undefined): string {
  if (!result) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(result.outputs)) {
    parts.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    if (parts.join(' · ').length > BATCH_CELL_TEXT_MAX_CHARS) break
  }
  return clip(parts.join(' · '))
}

function costText(result: RowResult | undefined, lang: string): string {
  const cost = result?.usage.costUsd
  return typeof cost === 'number' ? `$${formatNumber(cost, lang)}` : ''
}

export function BatchResults() {
  const { t, i18n } = useTranslation('batch')
  const { batch } = useServices()
  // Every announcement (`version`, at most one per BATCH_PROGRESS_INTERVAL_MS) renders the table;
  // listing 10,000 rows by status is a loop of well under a millisecond.
  const state: BatchState = useBatch((s) => s)
  const listed = listedRows(state)
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = useVirtualizer({
    count: listed.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => BATCH_ROW_HEIGHT_PX,
    overscan: BATCH_TABLE_OVERSCAN_ROWS,
  })
  const lang = i18n.language
  return (
    <div className="wf-batch__table" role="table" aria-label={t('results')} data-testid="batch-results">
      <div className="wf-batch__row wf-batch__row--head" role="row">
        <span role="columnheader">{t('col.row')}</span>
        <span role="columnheader">{t('col.status')}</span>
        <span role="columnheader">{t('col.outputs')}</span>
        <span role="columnheader">{t('col.tokens')}</span>
        <span role="columnheader">{t('col.cost')}</span>
        <span role="columnheader">{t('col.error')}</span>
        <span role="columnheader">{t('col.run')}</span>
      </div>
      <div className="wf-batch__scroll" ref={scroller} role="rowgroup">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const index = listed[item.index] as number
            const result = state.results[index]
            const status = rowState(state, index)
            const outputs = outputsText(result)
            return (
              <div
                key={index}
                role="row"
                className="wf-batch__row"
                data-testid="batch-row"
                data-row={index}
                data-status={status}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: BATCH_ROW_HEIGHT_PX,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <span role="cell">{index}</span>
                <span role="cell" className={`wf-batch__status wf-batch__status--${status}`}>
                  {t(`status.${status}`)}
                </span>
                <span role="cell" className="wf-batch__clip" title={outputs}>
                  {outputs}
                </span>
                <span role="cell">{result ? formatNumber(result.usage.total, lang) : ''}</span>
                <span role="cell">{costText(result, lang)}</span>
                <span role="cell" className="wf-batch__clip" title={result?.error ?? ''}>
                  {clip(result?.error ?? '')}
                </span>
                <span role="cell">
                  {state.runIds[index] !== undefined ? (
                    <button
                      type="button"
                      className="wf-batch__open"
                      data-testid="batch-row-open"
                      onClick={() => void batch?.openRow(index)}
                    >
                      {t('open')}
                    </button>
                  ) : null}
                </span>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
