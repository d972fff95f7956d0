/** One saved flow in the list: opens on click; rename in place, duplicate and delete buttons. */
import { memo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FlowSummary } from '../../store/libraryStore.ts'
import { IconButton } from '../kit/Button.tsx'

export interface FlowListItemProps {
  flow: FlowSummary
  current: boolean
  onOpen(): void
  onRename(name: string): void
  onDuplicate(): void
  onDelete(): void
}

/** Today: the time; otherwise the date. Short enough for one line beside the node count. */
function formatWhen(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const today = new Date().toDateString() === date.toDateString()
  return today
    ? date.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(language, { month: 'short', day: 'numeric' })
}

export const FlowListItem = memo(function FlowListItem({
  flow,
  current,
  onOpen,
  onRename,
  onDuplicate,
  onDelete,
}: FlowListItemProps) {
  const { t, i18n } = useTranslation()
  const [draft, setDraft] = useState<string | null>(null)
  const when = formatWhen(flow.updatedAt, i18n.language)

  const commit = (): void => {
    const name = (draft ?? '').trim()
    if (name !== '' && name !== flow.name) onRename(name)
    setDraft(null)
  }

  return (
    <li
      className="wf-flow-item"
      data-testid="flow-list-item"
      data-flow-id={flow.id}
      data-current={current || undefined}
    >
      {draft === null ? (
        <button
          type="button"
          className="wf-flow-item__open"
          onClick={onOpen}
          aria-current={current ? 'page' : undefined}
        >
          <span className="wf-flow-item__name">{flow.name}</span>
          <span className="wf-flow-item__meta">
            {t('flows.nodes', { count: flow.nodeCount })}
            {when ? ` · ${when}` : ''}
          </span>
        </button>
      ) : (
        <input
          className="wf-input wf-flow-item__rename"
          aria-label={t('flows.renameLabel')}
          value={draft}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit()
            else if (e.key === 'Escape') setDraft(null)
          }}
        />
      )}
      <div className="wf-flow-item__actions">
        <IconButton
          icon="edit"
          size="sm"
          label={t('flows.rename', { name: flow.name })}
          onClick={() => setDraft(flow.name)}
        />
        <IconButton
          icon="copy"
          size="sm"
          label={t('flows.duplicate', { name: flow.name })}
          onClick={onDuplicate}
        />
        <IconButton
          icon="trash"
          size="sm"
          label={t('flows.delete', { name: flow.name })}
          onClick={onDelete}
        />
      </div>
    </li>
  )
})
