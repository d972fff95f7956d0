/** The inspector's head: type, id (for `{{id.field}}` references), title, duplicate and delete. */
import type { CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { PASTE_OFFSET_PX } from '../../defaults.ts'
import type { NodeDefinition } from '../../nodes/types.ts'
import { flowStore, useReadOnly } from '../../store/flowStore.ts'
import { uiStore } from '../../store/uiStore.ts'
import { IconButton } from '../kit/Button.tsx'

export interface InspectorHeaderProps {
  nodeId: string
  type: string
  label: string
  definition: NodeDefinition | undefined
  /** The node has an output port ("Connect to…" is offered). */
  canConnect: boolean
}

export function InspectorHeader({ nodeId, type, label, definition, canConnect }: InspectorHeaderProps) {
  const { t } = useTranslation()
  const style = { '--node-accent': definition?.color ?? 'var(--text-faint)' } as CSSProperties
  const actions = flowStore.getState().actions
  const readOnly = useReadOnly()
  return (
    <header className="wf-inspector__header" style={style}>
      <div className="wf-inspector__type">
        <span className="wf-inspector__icon" aria-hidden="true">
          {definition?.icon ?? '?'}
        </span>
        <div>
          <div className="wf-inspector__type-name">{definition ? t(definition.labelKey) : type}</div>
          <div className="wf-inspector__id">
            {t('inspector:id')} <code>{nodeId}</code>
          </div>
        </div>
        <div className="wf-inspector__actions">
          {canConnect ? (
            <IconButton
              icon="flow"
              size="sm"
              label={t('connect:action')}
              title={t('connect:actionHint')}
              data-testid="connect-to"
              onClick={() => uiStore.getState().setConnectFrom(nodeId)}
            />
          ) : null}
          <IconButton
            icon="copy"
            size="sm"
            label={t('inspector:duplicate')}
            disabled={readOnly}
            onClick={() => {
              actions.select([nodeId])
              actions.duplicateSelection({ x: PASTE_OFFSET_PX, y: PASTE_OFFSET_PX })
            }}
          />
          <IconButton
            icon="trash"
            size="sm"
            variant="ghost"
            label={t('inspector:delete')}
            disabled={readOnly}
            onClick={() => actions.removeNodes([nodeId])}
          />
        </div>
      </div>
      {definition?.descriptionKey ? (
        <p className="wf-inspector__description">{t(definition.descriptionKey)}</p>
      ) : null}
      <div className="wf-field">
        <label className="wf-field__label" htmlFor={`title-${nodeId}`}>
          {t('inspector:nodeTitle')}
        </label>
        <input
          id={`title-${nodeId}`}
          className="wf-input"
          value={label}
          readOnly={readOnly}
          onChange={(e) => actions.setLabel(nodeId, e.target.value)}
        />
      </div>
    </header>
  )
}
