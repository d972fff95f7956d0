/** The node title: text, or an input after a double-click (Enter/blur saves, Escape cancels). */
import { memo, useState } from 'react'
import { flowStore, useReadOnly } from '../../store/flowStore.ts'

export const NodeTitle = memo(function NodeTitle({
  nodeId,
  label,
  hint,
}: {
  nodeId: string
  label: string
  hint: string
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const readOnly = useReadOnly()
  if (draft === null || readOnly) {
    return (
      <span
        className="wf-node__title"
        title={readOnly ? undefined : hint}
        onDoubleClick={readOnly ? undefined : () => setDraft(label)}
      >
        {label}
      </span>
    )
  }
  const commit = (): void => {
    const next = draft.trim()
    if (next !== '' && next !== label) flowStore.getState().actions.setLabel(nodeId, next)
    setDraft(null)
  }
  return (
    <input
      className="wf-node__title-input nodrag"
      value={draft}
      aria-label={hint}
      autoFocus
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        e.stopPropagation()
        if (e.key === 'Enter') commit()
        else if (e.key === 'Escape') setDraft(null)
      }}
    />
  )
})
