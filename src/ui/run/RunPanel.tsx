/**
 * The run panel at the bottom of the canvas: the run's status, progress (finished of total
 * nodes), tokens (marked when estimated) and duration; the failures and the flow's result; and
 * the run history. While a saved run is open, a bar says so and leads back to the live canvas.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RUN_CLOCK_TICK_MS } from '../../defaults.ts'
import { useServices } from '../services.ts'
import { useRunStore, type RunSummary } from '../../store/runStore.ts'
import { formatDuration, formatNumber, formatTime } from './format.ts'
import { useLoadedComponent } from '../useLoadedComponent.ts'
import { UsageFigure } from './UsageFigure.tsx'
import { RunCost } from './RunCost.tsx'
import './run.css'
import './runPanel.css'
import { RunSplitter } from './RunSplitter.tsx'

// The result and the history are chunks of their own: the page starts with neither a run nor
// an open history, and the bar above them is all the panel shows until then.
const loadRunSummary = () => import('./RunSummaryView.tsx').then((m) => m.RunSummaryView)
const loadRunHistory = () => import('./RunHistoryList.tsx').then((m) => m.RunHistoryList)
// Fork and "changes since" load with the first past run shown.
const loadPastTools = () => import('./PastRunTools.tsx').then((m) => m.PastRunTools)

type Tab = 'run' | 'history'

/** The run's duration, ticking while it runs. */
function useDuration(run: RunSummary): number {
  const running = run.status === 'running'
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return undefined
    const timer = setInterval(() => setNow(Date.now()), RUN_CLOCK_TICK_MS)
    return () => clearInterval(timer)
  }, [running])
  if (run.durationMs !== undefined) return run.durationMs
  return Math.max(0, now - run.startedAt)
}

/**
 * The duration figure on its own: its tick re-renders this one element, not the panel with the
 * run's summary and history (that cost a render of the whole panel four times a second while a
 * reply streams). Its text sits in a fixed-size box (runPanel.css), so the new text lays out only
 * that box, not the page.
 */
function RunDuration({ run, lang }: { run: RunSummary; lang: string }) {
  return (
    <dd className="wf-run-duration-box">
      <span className="wf-run-duration" data-testid="run-duration">
        {formatDuration(useDuration(run), lang)}
      </span>
    </dd>
  )
}

function PastRunBar({ startedAt, runId }: { startedAt: number; runId: string }) {
  const { t, i18n } = useTranslation('run')
  const run = useServices().run
  const PastRunTools = useLoadedComponent(loadPastTools, true)
  return (
    <div className="wf-run-past" data-testid="run-past-view" role="status">
      <span>{t('history.viewing', { time: formatTime(startedAt, i18n.language) })}</span>
      <button
        type="button"
        className="wf-btn wf-btn--sm wf-btn--primary"
        data-testid="run-back-to-live"
        onClick={() => run?.showLive?.()}
      >
        {t('history.backToLive')}
      </button>
      {PastRunTools && <PastRunTools runId={runId} />}
    </div>
  )
}

export function RunPanel() {
  const { t, i18n } = useTranslation('run')
  const areas = useServices().areas
  const run = useRunStore((s) => s.run)
  const phase = useRunStore((s) => s.phase)
  const view = useRunStore((s) => s.view)
  const historyCount = useRunStore((s) => s.history.length)
  const [tab, setTab] = useState<Tab>('run')
  const RunSummaryView = useLoadedComponent(loadRunSummary, run !== null)
  const RunHistoryList = useLoadedComponent(loadRunHistory, tab === 'history')
  const [open, setOpen] = useState(true)
  const lang = i18n.language
  const status = run?.status ?? (phase === 'preparing' ? 'running' : 'idle')

  return (
    <section
      className="wf-run-panel"
      data-testid="run-panel"
      aria-label={t('panel.title')}
      data-open={open || undefined}
    >
      {open ? <RunSplitter /> : null}
      <div className="wf-run-panel__bar">
        <div className="wf-run-panel__tabs" role="tablist" aria-label={t('panel.title')}>
          {(['run', 'history'] as const).map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`run-tab-${id}`}
              aria-selected={tab === id}
              aria-controls="run-panel-body"
              data-testid={`run-tab-${id}`}
              className="wf-run-panel__tab"
              onClick={() => {
                setTab(id)
                setOpen(true)
                // The history is read by the runs area, which loads on first use.
                if (id === 'history') void areas?.load('runs')
              }}
            >
              {id === 'run' ? t('panel.tabRun') : t('panel.tabHistory')}
              {id === 'history' && historyCount > 0 ? (
                <span className="wf-run-count">{historyCount}</span>
              ) : null}
            </button>
          ))}
        </div>
        <dl className="wf-run-panel__figures">
          <div>
            <dt className="visually-hidden">{t('panel.status')}</dt>
            <dd>
              <span
                className={`wf-run-chip wf-run-chip--${status}`}
                data-testid="run-status"
                data-status={status}
              >
                {phase === 'preparing' && !run ? t('controls.preparing') : t(`status.${status}`)}
              </span>
            </dd>
          </div>
          {run ? (
            <>
              <div>
                <dt className="visually-hidden">{t('panel.progressLabel')}</dt>
                <dd>
                  <progress className="wf-run-progress" max={run.total} value={run.done} aria-hidden="true" />{' '}
                  <span data-testid="run-progress">
                    {t('panel.progress', {
                      done: formatNumber(run.done, lang),
                      total: formatNumber(run.total, lang),
                    })}
                  </span>
                </dd>
              </div>
              <div>
                <dt className="visually-hidden">{t('panel.tokensLabel')}</dt>
                <dd data-testid="run-tokens">
                  <UsageFigure usage={run.usage} />
                </dd>
              </div>
              <div>
                <dt className="visually-hidden">{t('cost.label')}</dt>
                <dd>
                  <RunCost spent={run.spent} />
                </dd>
              </div>
              <div>
                <dt>{t('panel.duration')}</dt>
                <RunDuration run={run} lang={lang} />
              </div>
            </>
          ) : null}
        </dl>
        <button
          type="button"
          className="wf-btn wf-btn--icon wf-btn--ghost wf-btn--sm wf-run-panel__toggle"
          aria-expanded={open}
          aria-controls="run-panel-body"
          aria-label={open ? t('panel.collapse') : t('panel.expand')}
          title={open ? t('panel.collapse') : t('panel.expand')}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">{open ? '▾' : '▴'}</span>
        </button>
      </div>
      {view.mode === 'past' ? <PastRunBar startedAt={view.startedAt} runId={view.runId} /> : null}
      <div
        id="run-panel-body"
        className="wf-run-panel__body"
        role="tabpanel"
        aria-labelledby={`run-tab-${tab}`}
        hidden={!open}
      >
        {tab === 'history' ? (
          RunHistoryList && <RunHistoryList />
        ) : run ? (
          RunSummaryView && <RunSummaryView />
        ) : (
          <p className="wf-run-muted">{phase === 'preparing' ? t('panel.preparing') : t('panel.noRun')}</p>
        )}
      </div>
    </section>
  )
}
