/**
 * The selected node's last run, shown in the inspector's slot: status, start, duration, token
 * usage, inputs, output (text or sanitised Markdown), error or skip reason, and its console.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNodeRunFacts, useRunStore } from '../../store/runStore.ts'
import { formatDuration, formatNumber, formatTime, formatValue } from './format.ts'
import { LongText, OutputModeSwitch, OutputView, type OutputMode } from './OutputView.tsx'
import { RunConsole } from './console/RunConsole.tsx'
import { UsageFigure } from './UsageFigure.tsx'
import { ModelCalls } from './ModelCalls.tsx'
import { IterationBrowser } from './IterationBrowser.tsx'
import { LoopIterations } from './LoopIterations.tsx'
import { nodeCatalog } from '../../nodes/registry.ts'
import { useFlowStore } from '../../store/flowStore.ts'

export function NodeRunDetails({ nodeId }: { nodeId: string }) {
  const { t, i18n } = useTranslation('run')
  // Not the console text: the details render when a figure changes, not per streamed frame.
  const state = useNodeRunFacts(nodeId)
  const past = useRunStore((s) => s.view.mode === 'past')
  const [mode, setMode] = useState<OutputMode>('text')
  const lang = i18n.language
  // A container (a loop) browses its body's iterations; a body node its own.
  const container = useFlowStore((s) => {
    const type = s.nodes.find((n) => n.id === nodeId)?.type
    return type !== undefined && nodeCatalog.get(type)?.engine.container === true
  })

  if (state.status === 'idle' && !state.hasConsole) {
    return (
      <section className="wf-run-details" data-testid="node-run-details" data-status="idle">
        <h3 className="wf-run-details__title">{t('details.title')}</h3>
        <p className="wf-run-muted">{t('details.notRun')}</p>
      </section>
    )
  }
  const inputs = state.inputs ?? {}
  return (
    <section
      className="wf-run-details"
      data-testid="node-run-details"
      data-status={state.status}
      data-past={past || undefined}
    >
      <h3 className="wf-run-details__title">{t('details.title')}</h3>
      <dl className="wf-run-facts">
        <div>
          <dt>{t('details.status')}</dt>
          <dd>
            <span className={`wf-run-chip wf-run-chip--${state.status}`}>{t(`status.${state.status}`)}</span>
            {state.badge ? <span className="wf-run-chip wf-run-chip--badge">{state.badge}</span> : null}
          </dd>
        </div>
        {state.startedAt !== undefined ? (
          <div>
            <dt>{t('details.started')}</dt>
            <dd>{formatTime(state.startedAt, lang)}</dd>
          </div>
        ) : null}
        {state.durationMs !== undefined ? (
          <div>
            <dt>{t('details.duration')}</dt>
            <dd>{formatDuration(state.durationMs, lang)}</dd>
          </div>
        ) : null}
        {state.usage ? (
          <div>
            <dt>{t('details.usage')}</dt>
            <dd>
              {t('details.usageLine', {
                prompt: formatNumber(state.usage.prompt, lang),
                completion: formatNumber(state.usage.completion, lang),
                total: formatNumber(state.usage.total, lang),
              })}{' '}
              <UsageFigure usage={state.usage} hideTotal />
            </dd>
          </div>
        ) : null}
      </dl>
      {state.error ? (
        <div className="wf-run-details__error" data-code={state.error.code}>
          <strong>{t('details.error')}</strong> {state.error.message}
        </div>
      ) : null}
      {state.skipReason ? (
        <p className="wf-run-muted">
          <strong>{t('details.skipped')}</strong> {state.skipReason}
        </p>
      ) : null}
      {state.inputs !== undefined ? (
        <details className="wf-run-details__section">
          <summary>{t('details.inputs')}</summary>
          {Object.keys(inputs).length === 0 ? (
            <p className="wf-run-muted">{t('details.noInputs')}</p>
          ) : (
            <LongText text={formatValue(inputs)} />
          )}
        </details>
      ) : null}
      {container ? <LoopIterations loopId={nodeId} /> : null}
      {state.iterations && !container ? (
        <IterationBrowser iterations={state.iterations} notKept={state.iterationsNotKept} />
      ) : null}
      <ModelCalls nodeId={nodeId} status={state.status} />
      {state.output ? (
        <details className="wf-run-details__section" open>
          <summary>{t('details.output')}</summary>
          <OutputModeSwitch mode={mode} onChange={setMode} />
          <OutputView output={state.output} mode={mode} />
        </details>
      ) : null}
      <details className="wf-run-details__section" open>
        <summary>{t('details.console')}</summary>
        <RunConsole nodeId={nodeId} state={state} />
      </details>
    </section>
  )
}
