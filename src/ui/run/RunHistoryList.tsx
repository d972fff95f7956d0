/**
 * The saved runs of the open flow, newest first: time, status, duration and tokens. Opening one
 * shows its statuses, consoles and outputs read-only on the canvas.
 */
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useRunStore } from '../../store/runStore.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { formatDuration, formatTime, formatUsd } from './format.ts'
import { UsageFigure } from './UsageFigure.tsx'
import { DEBUG_NAMESPACE } from '../../i18n/index.ts'
import { useCatalogues } from '../useCatalogues.ts'
import './debug.css'
import type { HistoryParent } from '../../store/runStore.ts'

const DEBUG = [DEBUG_NAMESPACE]

/** "forked from …": the run of another flow this one was forked from (issue 19). */
function ForkedFrom({ parent, lang }: { parent: HistoryParent; lang: string }) {
  const ready = useCatalogues(DEBUG, true)
  const { t } = useTranslation(DEBUG_NAMESPACE)
  if (!ready) return null
  const values = { flow: parent.flowName || parent.flowId, time: formatTime(parent.startedAt, lang) }
  return (
    <span
      className="wf-run-muted wf-debug-parent"
      data-testid="run-history-parent"
      data-parent-run-id={parent.runId}
      title={t('history.forkedFromLabel', values)}
    >
      {t('history.forkedFrom', values)}
    </span>
  )
}

export function RunHistoryList() {
  const { t, i18n } = useTranslation('run')
  const history = useRunStore((s) => s.history)
  const view = useRunStore((s) => s.view)
  const keep = useSettings((s) => s.runHistoryPerFlow)
  const run = useServices().run
  const lang = i18n.language

  if (history.length === 0) {
    return (
      <p className="wf-run-muted" data-testid="run-history">
        {t('history.empty')}
      </p>
    )
  }
  return (
    <div className="wf-run-history">
      <table className="wf-run-history__table" data-testid="run-history">
        <thead>
          <tr>
            <th scope="col">{t('history.time')}</th>
            <th scope="col">{t('history.status')}</th>
            <th scope="col">{t('history.duration')}</th>
            <th scope="col">{t('history.tokens')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('history.open')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {history.map((item) => {
            const time = formatTime(item.startedAt, lang)
            const current = view.mode === 'past' && view.runId === item.id
            return (
              <tr
                key={item.id}
                data-testid="run-history-item"
                data-run-id={item.id}
                data-status={item.status}
                aria-current={current || undefined}
              >
                <td>
                  {time}
                  {item.forkedFrom ? <ForkedFrom parent={item.forkedFrom} lang={lang} /> : null}
                </td>
                <td>
                  <span className={`wf-run-chip wf-run-chip--${item.status}`}>
                    {t(`status.${item.status}`)}
                  </span>
                </td>
                <td>{formatDuration(item.durationMs, lang)}</td>
                <td>
                  <UsageFigure usage={item.usage} />
                  {typeof item.usage.costUsd === 'number' ? (
                    <span className="wf-run-history__cost">
                      {' · '}
                      {formatUsd(item.usage.costUsd, lang)}
                      {item.usage.unpricedCalls
                        ? ` ${t('cost.unpriced', { count: item.usage.unpricedCalls })}`
                        : null}
                    </span>
                  ) : null}
                </td>
                <td>
                  <button
                    type="button"
                    className="wf-btn wf-btn--sm wf-btn--default"
                    data-testid="run-history-open"
                    aria-label={t('history.openLabel', { time })}
                    disabled={!run?.openRun || current}
                    onClick={() => void run?.openRun?.(item.id)}
                  >
                    {t('history.open')}
                  </button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <p className="wf-run-muted wf-run-history__kept">{t('history.kept', { count: keep })}</p>
    </div>
  )
}
