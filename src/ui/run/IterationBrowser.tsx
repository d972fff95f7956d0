/**
 * A loop body node's iterations in the inspector's run details: step through them and see each
 * one's status, inputs, output and error (the run store's IterationRecord). The picked iteration
 * is its loop's (run store `iterationPicks`), so the loop's picker, this browser and the body's
 * consoles show the same one. Text only.
 */
import { useTranslation } from 'react-i18next'
import { loopOfRecords, type IterationRecord } from '../../store/iterationRecords.ts'
import { nodeStateOf, useRunActions, useRunStore } from '../../store/runStore.ts'
import { formatValue } from './format.ts'
import { IterationNav } from './IterationNav.tsx'
import { LongText } from './OutputView.tsx'

/** Where `key` is in `keys`, else the latest. */
export function pickedIndex(keys: readonly string[], key: string | undefined): number {
  const at = key === undefined ? -1 : keys.indexOf(key)
  return at >= 0 ? at : keys.length - 1
}

/** The loop's picked key and its count of iterations not kept (on the loop's state, from a record). */
export function useLoopPick(loopId: string | undefined): { key: string | undefined; notKept: number } {
  const key = useRunStore((s) =>
    loopId !== undefined && Object.hasOwn(s.iterationPicks, loopId) ? s.iterationPicks[loopId] : undefined,
  )
  const notKept = useRunStore((s) =>
    loopId === undefined ? 0 : (nodeStateOf(s.nodes, loopId).iterationsNotKept ?? 0),
  )
  return { key, notKept }
}

export function IterationBrowser({
  iterations,
  notKept = 0,
}: {
  iterations: readonly IterationRecord[]
  notKept?: number
}) {
  const { t } = useTranslation('run')
  const actions = useRunActions()
  const loopId = loopOfRecords(iterations)
  const pick = useLoopPick(loopId)
  if (iterations.length === 0 || loopId === undefined) return null
  const keys = iterations.map((r) => r.key)
  const at = pickedIndex(keys, pick.key)
  const record = iterations[at] as IterationRecord
  return (
    <details className="wf-run-details__section" open data-testid="loop-iterations" data-count={keys.length}>
      <summary>{t('iterations.title', { count: keys.length })}</summary>
      <IterationNav
        at={at}
        count={keys.length}
        label={record.key}
        notKept={Math.max(notKept, pick.notKept)}
        onPick={(i) => actions.pickIteration(loopId, keys[i])}
      />
      <div
        data-testid="loop-iteration"
        data-iteration={record.iteration}
        data-key={record.key}
        data-status={record.status}
      >
        <span className={`wf-run-chip wf-run-chip--${record.status}`}>{t(`status.${record.status}`)}</span>
        {record.inputs !== undefined ? (
          <div data-testid="loop-iteration-inputs">
            <strong>{t('details.inputs')}</strong>
            <LongText text={formatValue(record.inputs)} />
          </div>
        ) : null}
        <IterationResult record={record} />
      </div>
    </details>
  )
}

/** One record's output, error or skip reason. */
export function IterationResult({ record }: { record: IterationRecord }) {
  const { t } = useTranslation('run')
  return (
    <>
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
    </>
  )
}
