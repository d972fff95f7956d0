/**
 * The run's timeline: one bar per node over the run's time (timeline.ts). Drawn once the run has
 * ended (live or re-opened from History), never while text streams, so it costs no frame.
 */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { useFlowStore } from '../../store/flowStore.ts'
import { useRunStore } from '../../store/runStore.ts'
import { formatDuration } from './format.ts'
import { timelineRows, type TimelineRow } from './timeline.ts'

const NO_ROWS: TimelineRow[] = []

export function RunTimeline() {
  const { t, i18n } = useTranslation('run')
  const run = useRunStore((s) => s.run)
  // While the run goes the nodes change every frame: the timeline waits for its end.
  const nodes = useRunStore((s) => (!s.run || s.run.status === 'running' ? null : s.nodes))
  const rows = useMemo(
    () => (run && nodes ? timelineRows(nodes, run.startedAt, run.durationMs ?? 0) : NO_ROWS),
    [run, nodes],
  )
  const labels = useFlowStore(useShallow((s) => s.nodes.map((n) => `${n.id}\n${n.data.label || n.id}`)))
  if (rows.length === 0) return null
  const labelOf = new Map(labels.map((l) => l.split('\n') as [string, string]))
  return (
    <div className="wf-run-timeline" data-testid="run-timeline">
      <strong>{t('timeline.title')}</strong>
      <ol>
        {rows.map((row) => (
          <li
            key={row.nodeId}
            data-testid="run-timeline-row"
            data-node-id={row.nodeId}
            data-status={row.status}
            data-cached={row.cached}
          >
            <span className="wf-run-timeline__name">{labelOf.get(row.nodeId) ?? row.nodeId}</span>
            <span className="wf-run-timeline__track" aria-hidden="true">
              <span
                className={`wf-run-timeline__bar wf-run-timeline__bar--${row.status}`}
                style={{ marginLeft: `${row.startPct}%`, width: `max(2px, ${row.widthPct}%)` }}
              />
            </span>
            <span className="wf-run-timeline__time">
              {row.cached
                ? t(`timeline.cached.${row.cached}`)
                : t('timeline.span', {
                    start: formatDuration(row.startMs, i18n.language),
                    duration: formatDuration(row.durationMs, i18n.language),
                  })}
            </span>
          </li>
        ))}
      </ol>
    </div>
  )
}
