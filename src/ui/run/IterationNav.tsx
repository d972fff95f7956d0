/**
 * Steps through a loop's iterations: previous / next buttons and "Iteration 2 of 3", with the
 * arrow keys, Home and End on the group. Shared by the loop's picker and a body node's browser.
 * At either end a button is aria-disabled, not disabled: a disabled button would drop the
 * keyboard focus as the last step reaches it.
 */
import type { KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { iterationLabel } from '../../store/iterationRecords.ts'
import { formatNumber } from './format.ts'

export interface IterationNavProps {
  /** Index of the shown iteration in the kept list (from 0). */
  at: number
  count: number
  /** The shown iteration's key ("2", or "1.0" in a loop in a loop). */
  label: string
  /** Older iterations that were not kept (LOOP_STORED_ITERATIONS_MAX). */
  notKept: number
  onPick(at: number): void
}

export function IterationNav({ at, count, label, notKept, onPick }: IterationNavProps) {
  const { t, i18n } = useTranslation('run')
  const go = (to: number): void => {
    const next = Math.min(Math.max(to, 0), count - 1)
    if (next !== at) onPick(next)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: count - 1 }[event.key]
    if (to === undefined) return
    event.preventDefault()
    go(to)
  }
  return (
    <>
      <div
        className="wf-run-iterations__nav"
        role="group"
        aria-label={t('iterations.picker')}
        onKeyDown={onKeyDown}
      >
        <button
          type="button"
          data-testid="loop-iteration-prev"
          aria-disabled={at === 0}
          onClick={() => go(at - 1)}
          aria-label={t('iterations.previous')}
        >
          ‹
        </button>
        <span data-testid="loop-iteration-index" aria-live="polite">
          {t('iterations.of', {
            index: formatNumber(at + 1 + notKept, i18n.language),
            count: formatNumber(count + notKept, i18n.language),
          })}
          {label.includes('.') ? ` (${iterationLabel(label)})` : ''}
        </span>
        <button
          type="button"
          data-testid="loop-iteration-next"
          aria-disabled={at === count - 1}
          onClick={() => go(at + 1)}
          aria-label={t('iterations.next')}
        >
          ›
        </button>
      </div>
      {notKept > 0 ? (
        <p className="wf-run-muted" data-testid="loop-iterations-not-kept">
          {t('iterations.notKept', { count: notKept, n: formatNumber(notKept, i18n.language) })}
        </p>
      ) : null}
    </>
  )
}
