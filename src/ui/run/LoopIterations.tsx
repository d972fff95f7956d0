/**
 * A loop's iteration picker in the inspector's run details: "Iteration 2 of 3" with previous /
 * next, and for the picked iteration each body node's status, inputs, output or error. Picking one also
 * turns the body nodes' consoles to it (ui/run/useIterationPick.ts). Text only.
 */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { useFlowStore } from '../../store/flowStore.ts'
import type { IterationRecord } from '../../store/iterationRecords.ts'
import { nodeStateOf, useRunActions, useRunStore } from '../../store/runStore.ts'
import { formatValue } from './format.ts'
import { IterationNav } from './IterationNav.tsx'
import { LongText } from './OutputView.tsx'
import { IterationResult, pickedIndex, useLoopPick } from './IterationBrowser.tsx'

const NONE: readonly IterationRecord[] = []

function byChain(a: IterationRecord, b: IterationRecord): number {
  for (let i = 0; i < Math.max(a.chain.length, b.chain.length); i++) {
    const d = (a.chain[i] ?? -1) - (b.chain[i] ?? -1)
    if (d !== 0) return d
  }
  return 0
}

export function LoopIterations({ loopId }: { loopId: string }) {
  const { t } = useTranslation('run')
  const actions = useRunActions()
  const ids = useFlowStore(useShallow((s) => s.nodes.filter((n) => n.parentId === loopId).map((n) => n.id)))
  const labels = useFlowStore(
    useShallow((s) => s.nodes.filter((n) => n.parentId === loopId).map((n) => n.data.label || n.id)),
  )
  const body = ids.map((id, i) => ({ id, label: labels[i] ?? id }))
  const records = useRunStore(
    useShallow((s) => body.map((n) => nodeStateOf(s.nodes, n.id).iterations ?? NONE)),
  )
  const bodyNotKept = useRunStore((s) =>
    Math.max(0, ...body.map((n) => nodeStateOf(s.nodes, n.id).iterationsNotKept ?? 0)),
  )
  const pick = useLoopPick(loopId)
  // Every iteration any body node has a record of, in order.
  const keys = useMemo(() => {
    const seen = new Map<string, IterationRecord>()
    for (const list of records) for (const r of list) if (!seen.has(r.key)) seen.set(r.key, r)
    return [...seen.values()].sort(byChain).map((r) => r.key)
  }, [records])
  if (keys.length === 0) return null
  const at = pickedIndex(keys, pick.key)
  const key = keys[at] as string
  return (
    <details className="wf-run-details__section" open data-testid="loop-iterations" data-count={keys.length}>
      <summary>{t('iterations.title', { count: keys.length })}</summary>
      <IterationNav
        at={at}
        count={keys.length}
        label={key}
        notKept={Math.max(pick.notKept, bodyNotKept)}
        onPick={(i) => actions.pickIteration(loopId, keys[i])}
      />
      <ul
        className="wf-run-iterations__nodes"
        data-testid="loop-iteration"
        data-key={key}
        data-iteration={key.split('.').at(-1)}
      >
        {body.map((n, i) => {
          const record = (records[i] ?? NONE).find((r) => r.key === key)
          return (
            <li
              key={n.id}
              data-testid="loop-iteration-node"
              data-node-id={n.id}
              data-status={record?.status ?? 'idle'}
            >
              <strong>{n.label}</strong>{' '}
              <span className={`wf-run-chip wf-run-chip--${record?.status ?? 'idle'}`}>
                {t(`status.${record?.status ?? 'idle'}`)}
              </span>
              {record?.inputs !== undefined && Object.keys(record.inputs).length > 0 ? (
                <details data-testid="loop-iteration-inputs">
                  <summary>{t('details.inputs')}</summary>
                  <LongText text={formatValue(record.inputs)} />
                </details>
              ) : null}
              {record ? <IterationResult record={record} /> : null}
            </li>
          )
        })}
      </ul>
    </details>
  )
}
