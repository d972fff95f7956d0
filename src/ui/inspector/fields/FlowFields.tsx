/**
 * The Sub-flow node's fields: `flow` picks a saved flow (and opens it), `flowInputs` gives one
 * template per Input key of the picked flow and lists its Output keys. The keys come from the
 * flows service (`describe`), which reads the saved flow; the list of flows from the library.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useFlowStore } from '../../../store/flowStore.ts'
import { useLibrary } from '../../../store/libraryStore.ts'
import { Button } from '../../kit/Button.tsx'
import { useServices, type FlowInterface } from '../../services.ts'
import type { FieldProps } from './types.ts'

const asText = (value: unknown): string => (typeof value === 'string' ? value : '')

export function FlowField({ inputId, describedBy, value, onChange }: FieldProps) {
  const { t } = useTranslation()
  const { flows: service } = useServices()
  const openId = useFlowStore((s) => s.flowId)
  // A flow cannot call itself, so the open flow is not offered.
  const flows = useLibrary((s) => s.flows).filter((f) => f.id !== openId)
  const current = asText(value)
  const known = current === '' || flows.some((f) => f.id === current)
  return (
    <div className="wf-field__row">
      <select
        id={inputId}
        className="wf-select"
        data-testid="subflow-flow"
        value={current}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{t('fields:subflow.pick')}</option>
        {!known ? (
          <option value={current}>{t('fields:subflow.missingFlow', { flow: current })}</option>
        ) : null}
        {flows.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      <Button
        size="sm"
        data-testid="subflow-open"
        disabled={current === '' || !known}
        onClick={() => void service.open(current)}
      >
        {t('fields:subflow.open')}
      </Button>
    </div>
  )
}

/** The picked flow's keys, read again when that flow is saved anew; null while unknown. */
function useFlowInterface(flowId: string): FlowInterface | null {
  const { flows: service } = useServices()
  const updatedAt = useLibrary((s) => s.flows.find((f) => f.id === flowId)?.updatedAt)
  const [found, setFound] = useState<{ id: string; keys: FlowInterface | null } | null>(null)
  useEffect(() => {
    if (flowId === '' || !service.describe) return
    let live = true
    service.describe(flowId).then(
      (keys) => live && setFound({ id: flowId, keys }),
      () => live && setFound({ id: flowId, keys: null }),
    )
    return () => {
      live = false
    }
  }, [flowId, updatedAt, service])
  return found?.id === flowId ? found.keys : null
}

export function FlowInputsField({ inputId, value, config, label, onChange }: FieldProps) {
  const { t } = useTranslation()
  const flowId = asText(config['flow'])
  const keys = useFlowInterface(flowId)
  const inputs =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  if (flowId === '') return <p className="wf-section-hint">{t('fields:subflow.pickFirst')}</p>
  // The called flow's keys first, then any mapped key it no longer has (kept, not dropped).
  const names = [
    ...(keys?.inputKeys ?? []),
    ...Object.keys(inputs).filter((k) => !keys?.inputKeys.includes(k)),
  ]
  return (
    <div className="wf-pairs" id={inputId} data-testid="subflow-inputs">
      {keys && names.length === 0 ? <p className="wf-section-hint">{t('fields:subflow.noInputs')}</p> : null}
      {names.map((name) => (
        <label className="wf-pairs__row" key={name}>
          <span className="wf-pairs__key">{name}</span>
          <input
            className="wf-input wf-pairs__value"
            aria-label={`${label}: ${name}`}
            data-input-key={name}
            value={asText(inputs[name])}
            spellCheck={false}
            onChange={(e) => onChange({ ...inputs, [name]: e.target.value }, name)}
          />
        </label>
      ))}
      {keys ? (
        <p className="wf-section-hint" data-testid="subflow-outputs">
          {t('fields:subflow.outputs')}:{' '}
          {keys.outputKeys.length > 0 ? keys.outputKeys.join(', ') : t('fields:subflow.noOutputs')}
        </p>
      ) : null}
    </div>
  )
}
