/** The open flow's name, editable in place. */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useFlowStore, useReadOnly } from '../../store/flowStore.ts'

export function FlowName() {
  const { t } = useTranslation()
  const { flows } = useServices()
  const flowId = useFlowStore((s) => s.flowId)
  const name = useFlowStore((s) => s.metadata?.name ?? '')
  const readOnly = useReadOnly()
  const [draft, setDraft] = useState(name)
  useEffect(() => setDraft(name), [name])
  if (flowId === null) return null
  const commit = (): void => {
    const next = draft.trim()
    if (next === '' || next === name) setDraft(name)
    else void flows.rename(flowId, next)
  }
  return (
    <input
      className="wf-flow-name"
      aria-label={t('toolbar.flowName')}
      value={draft}
      readOnly={readOnly}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur()
        else if (e.key === 'Escape') {
          setDraft(name)
          e.currentTarget.blur()
        }
      }}
    />
  )
}
