/**
 * The run tab of the run panel: figures of the current (or re-opened) run, the nodes that
 * failed (click one to select it), and the flow's result: what its Output nodes produced.
 */
import { memo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { nodeCatalog } from '../../nodes/registry.ts'
import { useFlowActions, useFlowStore } from '../../store/flowStore.ts'
import { useShallow } from 'zustand/react/shallow'
import { nodeStateOf, useRunStore } from '../../store/runStore.ts'
import { OutputModeSwitch, OutputView, type OutputMode } from './OutputView.tsx'
import { RunTimeline } from './RunTimeline.tsx'
import { RunGuardNotice } from './RunGuardNotice.tsx'

function useOutputNodeIds(): string[] {
  const ids = useFlowStore((s) =>
    s.nodes
      .filter((n) => nodeCatalog.role(n.type) === 'flowOutput')
      .map((n) => n.id)
      .join('\n'),
  )
  return ids === '' ? [] : ids.split('\n')
}

const NO_IDS: readonly string[] = []

/**
 * The labels of `ids` only (shallow-compared): a drag rewrites the nodes array every frame but
 * leaves labels alone, so the summary does not re-render while a node moves.
 */
function useNodeLabels(ids: readonly string[]): string[] {
  return useFlowStore(
    useShallow((s) => {
      if (ids.length === 0) return []
      const wanted = new Set(ids)
      const found = new Map<string, string>()
      for (const n of s.nodes) if (wanted.has(n.id)) found.set(n.id, n.data.label || n.id)
      return ids.map((id) => found.get(id) ?? id)
    }),
  )
}

export const RunSummaryView = memo(function RunSummaryView() {
  const { t } = useTranslation('run')
  const run = useRunStore((s) => s.run)
  const outputIds = useOutputNodeIds()
  // Only the Output nodes' outputs: streaming into other nodes does not re-render the result.
  const outputs = useRunStore(useShallow((s) => outputIds.map((id) => nodeStateOf(s.nodes, id).output)))
  const labelIds = [...(run?.failures.map((f) => f.nodeId) ?? NO_IDS), ...outputIds]
  const labels = useNodeLabels(labelIds)
  const { select } = useFlowActions()
  const [mode, setMode] = useState<OutputMode>('text')

  // The run panel mounts this view only while there is a run; it says "no run" itself.
  if (!run) return null
  const label = (id: string): string => labels[labelIds.indexOf(id)] ?? id
  const results = outputIds.flatMap((id, i) => {
    const output = outputs[i]
    return output ? [{ id, output }] : []
  })
  return (
    <div className="wf-run-summary">
      {run.runGuard ? <RunGuardNotice guard={run.runGuard} /> : null}
      {run.failures.length > 0 ? (
        <div className="wf-run-summary__failures" data-testid="run-error-summary">
          <strong>{t('panel.failures', { count: run.failures.length })}</strong>
          <ul>
            {run.failures.map((f) => (
              <li key={f.nodeId}>
                <button type="button" className="wf-run-link" onClick={() => select([f.nodeId])}>
                  {label(f.nodeId)}
                </button>
                : {f.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="wf-run-summary__result" data-testid="run-result">
        <div className="wf-run-summary__result-head">
          <strong>{t('panel.result')}</strong>
          {results.length > 0 ? <OutputModeSwitch mode={mode} onChange={setMode} /> : null}
        </div>
        {results.length === 0 ? (
          <p className="wf-run-muted">{t('panel.noResult')}</p>
        ) : (
          results.map(({ id, output }) => (
            <div key={id} className="wf-run-summary__output" data-node-id={id}>
              {results.length > 1 ? <div className="wf-run-summary__output-name">{label(id)}</div> : null}
              <OutputView output={output} mode={mode} />
            </div>
          ))
        )}
      </div>
      <RunTimeline />
    </div>
  )
})
