/**
 * The saved flows: search, new, and per entry open / rename / duplicate / delete (with a
 * confirm dialog). Changes go through the app's flows service; the list itself comes from the
 * library store, which app/ keeps in step with storage.
 */
import { useDeferredValue, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import { useLibrary, type FlowSummary } from '../../store/libraryStore.ts'
import { Button, IconButton } from '../kit/Button.tsx'
import { Icon } from '../kit/icons.tsx'
import { useLoadedComponent } from '../useLoadedComponent.ts'
import { FlowListItem } from './FlowListItem.tsx'

// The confirm dialog (and the dialog kit) loads with the first Delete: the page's start shows none.
const loadConfirmDelete = () => import('./ConfirmDeleteDialog.tsx').then((m) => m.ConfirmDeleteDialog)

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase()
}

export function FlowList() {
  const { t } = useTranslation()
  const { flows: service } = useServices()
  const flows = useLibrary((s) => s.flows)
  const ready = useLibrary((s) => s.ready)
  const currentId = useFlowStore((s) => s.flowId)
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query)
  const [pendingDelete, setPendingDelete] = useState<FlowSummary | null>(null)
  const ConfirmDeleteDialog = useLoadedComponent(loadConfirmDelete, pendingDelete !== null)

  const visible = useMemo(() => {
    const needle = fold(deferred.trim())
    return needle === '' ? flows : flows.filter((f) => fold(f.name).includes(needle))
  }, [flows, deferred])

  return (
    <section className="wf-panel-section wf-flows" aria-labelledby="wf-flows-title">
      <div className="wf-section-head">
        <h2 id="wf-flows-title" className="wf-section-title">
          {t('flows.title')}
        </h2>
        <Button size="sm" icon="plus" data-testid="new-flow" onClick={() => void service.create()}>
          {t('flows.new')}
        </Button>
      </div>
      <label className="wf-search">
        <Icon name="search" size={14} />
        <span className="visually-hidden">{t('flows.search')}</span>
        <input
          type="search"
          className="wf-search__input"
          placeholder={t('flows.searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {query !== '' ? (
          <IconButton icon="close" size="sm" label={t('flows.clearSearch')} onClick={() => setQuery('')} />
        ) : null}
      </label>
      <ul className="wf-flows__list" data-testid="flow-list" aria-label={t('flows.title')} aria-busy={!ready}>
        {visible.map((flow) => (
          <FlowListItem
            key={flow.id}
            flow={flow}
            current={flow.id === currentId}
            onOpen={() => void service.open(flow.id)}
            onRename={(name) => void service.rename(flow.id, name)}
            onDuplicate={() => void service.duplicate(flow.id)}
            onDelete={() => setPendingDelete(flow)}
          />
        ))}
      </ul>
      {ready && visible.length === 0 ? (
        <p className="wf-section-hint">{query === '' ? t('flows.empty') : t('flows.noMatch')}</p>
      ) : null}
      {ConfirmDeleteDialog ? (
        <ConfirmDeleteDialog
          flow={pendingDelete}
          onCancel={() => setPendingDelete(null)}
          onConfirm={() => {
            if (pendingDelete) void service.remove(pendingDelete.id)
            setPendingDelete(null)
          }}
        />
      ) : null}
    </section>
  )
}
