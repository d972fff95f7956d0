/**
 * The past-run bar's tools (issue 19): Fork (a new flow of the run's flow as it ran, whose runs
 * reuse this run's results for what stays unchanged; the run itself is never changed) and what
 * differs between this run's flow and the live one, and the run's downloads (its trace, its
 * cassette). Loads with the first past run shown.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DEBUG_NAMESPACE } from '../../i18n/index.ts'
import { useServices, type PastRunDiff } from '../services.ts'
import { useCatalogues } from '../useCatalogues.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import './debug.css'

const NAMESPACES = [DEBUG_NAMESPACE]

type Loaded = { runId: string; diff: PastRunDiff | null }

/** The differences, read again when the live flow changes (the canvas is read-only meanwhile). */
function usePastDiff(runId: string): Loaded | undefined {
  const run = useServices().run
  const nodes = useFlowStore((s) => s.nodes)
  const edges = useFlowStore((s) => s.edges)
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined)
  useEffect(() => {
    let live = true
    const ask = run?.pastRunDiff
    if (!ask) return undefined
    ask(runId).then(
      (diff) => live && setLoaded({ runId, diff }),
      () => live && setLoaded({ runId, diff: null }),
    )
    return () => {
      live = false
    }
  }, [run, runId, nodes, edges])
  return loaded?.runId === runId ? loaded : undefined
}

function DiffList({ diff }: { diff: PastRunDiff }) {
  const { t } = useTranslation(DEBUG_NAMESPACE)
  const count = diff.added.length + diff.removed.length + diff.changed.length
  const edges = diff.edgesAdded + diff.edgesRemoved
  if (count === 0 && edges === 0) return <p className="wf-run-muted">{t('diff.same')}</p>
  const label = (n: { label: string; id: string }) => n.label || n.id
  return (
    <ul className="wf-debug-diff__list">
      {diff.changed.map((n) => (
        <li key={`c-${n.id}`} data-testid="run-diff-item" data-kind="changed" data-node-id={n.id}>
          <span className="wf-debug-tag wf-debug-tag--changed">{t('diff.changed')}</span> {label(n)}{' '}
          <span className="wf-run-muted">
            ({n.changes.map((c) => c.replace(/^config\./, '')).join(', ')})
          </span>
        </li>
      ))}
      {diff.added.map((n) => (
        <li key={`a-${n.id}`} data-testid="run-diff-item" data-kind="added" data-node-id={n.id}>
          <span className="wf-debug-tag wf-debug-tag--added">{t('diff.added')}</span> {label(n)}
        </li>
      ))}
      {diff.removed.map((n) => (
        <li key={`r-${n.id}`} data-testid="run-diff-item" data-kind="removed" data-node-id={n.id}>
          <span className="wf-debug-tag wf-debug-tag--removed">{t('diff.removed')}</span> {label(n)}
        </li>
      ))}
      {edges > 0 ? (
        <li data-testid="run-diff-item" data-kind="edges">
          {t('diff.edges', { added: diff.edgesAdded, removed: diff.edgesRemoved })}
        </li>
      ) : null}
    </ul>
  )
}

/** The run's trace as OTLP JSON; prompts and replies only when the person ticks the box. */
function TraceDownload({ runId }: { runId: string }) {
  const { t } = useTranslation(DEBUG_NAMESPACE)
  const run = useServices().run
  const [content, setContent] = useState(false)
  const [busy, setBusy] = useState(false)
  if (!run?.downloadTrace) return null
  return (
    <span className="wf-debug-trace">
      <button
        type="button"
        className="wf-btn wf-btn--sm wf-btn--default"
        data-testid="run-trace-download"
        title={t('trace.help')}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={() => {
          setBusy(true)
          void run.downloadTrace?.(runId, content).finally(() => setBusy(false))
        }}
      >
        {t('trace.button')}
      </button>
      <label className="wf-debug-trace__content">
        <input type="checkbox" checked={content} onChange={(e) => setContent(e.currentTarget.checked)} />{' '}
        {t('trace.content')}
      </label>
    </span>
  )
}

/** The run as a cassette for `wardflow run --replay` / `wardflow test` (its model replies). */
function CassetteDownload({ runId }: { runId: string }) {
  const { t } = useTranslation(DEBUG_NAMESPACE)
  const run = useServices().run
  const [busy, setBusy] = useState(false)
  if (!run?.downloadCassette) return null
  return (
    <button
      type="button"
      className="wf-btn wf-btn--sm wf-btn--default"
      data-testid="run-cassette-download"
      title={t('cassette.help')}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => {
        setBusy(true)
        void run.downloadCassette?.(runId).finally(() => setBusy(false))
      }}
    >
      {t('cassette.button')}
    </button>
  )
}

export function PastRunTools({ runId }: { runId: string }) {
  const ready = useCatalogues(NAMESPACES, true)
  const { t } = useTranslation(DEBUG_NAMESPACE)
  const run = useServices().run
  const loaded = usePastDiff(runId)
  const [busy, setBusy] = useState(false)
  if (!ready) return null
  const count = loaded?.diff
    ? loaded.diff.added.length + loaded.diff.removed.length + loaded.diff.changed.length
    : 0
  return (
    <div className="wf-debug-past">
      {run?.fork ? (
        <button
          type="button"
          className="wf-btn wf-btn--sm wf-btn--default"
          data-testid="run-fork"
          title={t('fork.help')}
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => {
            setBusy(true)
            void run.fork?.(runId).finally(() => setBusy(false))
          }}
        >
          {t('fork.button')}
        </button>
      ) : null}
      <TraceDownload runId={runId} />
      <CassetteDownload runId={runId} />
      <details className="wf-debug-diff" data-testid="run-diff" data-count={count}>
        <summary>{t('diff.title', { count })}</summary>
        {loaded === undefined ? null : loaded.diff ? (
          <DiffList diff={loaded.diff} />
        ) : (
          <p className="wf-run-muted">{t('diff.noSnapshot')}</p>
        )}
      </details>
    </div>
  )
}
