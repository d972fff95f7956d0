/**
 * The model calls of the selected node in a saved run (issue 19): per call the model, tokens and
 * time; opened, the exact request (messages, tools, parameters) and the raw reply, keys scrubbed
 * by the run service. Everything is shown as preformatted text: a reply is never HTML.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRunStore } from '../../store/runStore.ts'
import { useServices, type ModelCallView } from '../services.ts'
import { formatDuration, formatNumber, formatValue } from './format.ts'

type Loaded = { key: string; calls: ModelCallView[] }

/** The run whose calls to show: the past run on view, else the live one once it was saved. */
function useShownRunId(): string | undefined {
  return useRunStore((s) =>
    s.view.mode === 'past' ? s.view.runId : s.phase === 'idle' ? s.run?.runId : undefined,
  )
}

function CallBody({ call }: { call: ModelCallView }) {
  const { t } = useTranslation('run')
  const { messages, ...parameters } = call.request
  return (
    <div className="wf-run-model-call__body">
      <h4>{t('modelCalls.messages')}</h4>
      <pre data-part="messages">{formatValue(messages)}</pre>
      <h4>{t('modelCalls.parameters')}</h4>
      <pre data-part="parameters">{formatValue(parameters)}</pre>
      <h4>{t('modelCalls.reply')}</h4>
      {call.reply ? (
        <>
          <pre data-part="reply">{call.reply.text}</pre>
          {call.reply.toolCalls.length > 0 ? (
            <>
              <h4>{t('modelCalls.toolCalls')}</h4>
              <pre data-part="toolCalls">{formatValue(call.reply.toolCalls)}</pre>
            </>
          ) : null}
        </>
      ) : (
        <p className="wf-run-muted">{t('modelCalls.noReply', { code: call.error ?? '' })}</p>
      )}
    </div>
  )
}

export function ModelCalls({ nodeId, status }: { nodeId: string; status: string }) {
  const { t, i18n } = useTranslation('run')
  const ask = useServices().run?.modelCalls
  const runId = useShownRunId()
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined)
  const key = `${runId ?? ''}:${nodeId}:${status}`
  useEffect(() => {
    if (!ask || runId === undefined) return undefined
    let live = true
    ask(runId, nodeId).then(
      (calls) => live && setLoaded({ key, calls }),
      () => live && setLoaded({ key, calls: [] }),
    )
    return () => {
      live = false
    }
  }, [ask, runId, nodeId, key])
  const calls = loaded?.key === key ? loaded.calls : []
  if (calls.length === 0) return null
  const lang = i18n.language
  return (
    <details className="wf-run-details__section" data-testid="node-model-calls" data-count={calls.length}>
      <summary>{t('modelCalls.title', { count: calls.length })}</summary>
      <ol className="wf-run-model-calls">
        {calls.map((call, index) => (
          <li key={`${call.startedAt}-${index}`}>
            <details data-testid="node-model-call" data-error={call.error || undefined}>
              <summary>
                {t('modelCalls.line', {
                  model: call.responseModel || call.model || call.provider,
                  tokens: call.usage
                    ? formatNumber(call.usage.prompt + call.usage.completion, lang)
                    : t('modelCalls.noUsage'),
                  time: formatDuration(Math.max(0, call.at - call.startedAt), lang),
                })}
              </summary>
              <CallBody call={call} />
            </details>
          </li>
        ))}
      </ol>
    </details>
  )
}
