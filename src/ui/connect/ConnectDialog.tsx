/**
 * "Connect to…": the keyboard's way to draw a connection (C on a selected node, or the
 * inspector's button). A listbox of every node that takes an input; the arrow keys move, Enter
 * connects through the same store action a drag uses, so a loop is refused with the words a
 * drag gets, shown here while the list stays open for another choice. Loaded on first open.
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import type { PortSpec } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import { flowStore, useFlowStore } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { uiStore, useUi } from '../../store/uiStore.ts'
import { Dialog } from '../kit/Dialog.tsx'
import { canConnectFrom, connectTargets, type ConnectTarget } from './connectTargets.ts'
import './connect.css'

const close = (): void => uiStore.getState().setConnectFrom(null)

export function ConnectDialog() {
  const { t } = useTranslation()
  const sourceId = useUi((s) => s.connectFrom)
  const source = useFlowStore((s) => (sourceId === null ? undefined : s.nodes.find((n) => n.id === sourceId)))
  return (
    <Dialog
      open={sourceId !== null}
      title={t('connect:title', { node: source?.data.label ?? sourceId ?? '' })}
      closeLabel={t('common.close')}
      onClose={close}
      size="sm"
      testId="connect-dialog"
    >
      {sourceId !== null && source && canConnectFrom(source) ? (
        // Keyed by the source so the active row and a refusal start afresh for another node.
        <TargetList key={sourceId} sourceId={sourceId} sourceLabel={source.data.label} />
      ) : (
        <p className="wf-connect__empty">
          {t(source ? 'connect:noOutput' : 'connect:missing', { node: source?.data.label ?? sourceId })}
        </p>
      )}
    </Dialog>
  )
}

function portLabel(port: PortSpec, t: TFunction): string {
  return port.label ?? (port.labelKey ? t(port.labelKey) : port.id)
}

function TargetList({ sourceId, sourceLabel }: { sourceId: string; sourceLabel: string }) {
  const { t } = useTranslation()
  const listId = useId()
  const nodes = useFlowStore((s) => s.nodes)
  const edges = useFlowStore((s) => s.edges)
  const targets = useMemo(() => connectTargets(sourceId, nodes, edges), [sourceId, nodes, edges])
  const [active, setActive] = useState(0)
  const [refusal, setRefusal] = useState<string | null>(null)
  const optionId = (i: number): string => `${listId}-${i}`

  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' })
  })

  if (targets.length === 0) return <p className="wf-connect__empty">{t('connect:noTargets')}</p>

  const choose = (target: ConnectTarget | undefined): void => {
    if (!target) return
    const result = flowStore.getState().actions.connect({
      source: sourceId,
      sourceHandle: target.sourceHandle,
      target: target.nodeId,
      targetHandle: target.handle,
    })
    if (result.ok) {
      noticeStore.getState().note('canvas.connected', { from: sourceLabel, to: target.label }, 'success')
      close()
    } else {
      // The same sentence a refused drag shows (canvas.refused.*); a drag ignores a duplicate.
      setRefusal(t(result.reason === 'DUPLICATE' ? 'connect:duplicate' : `canvas.refused.${result.reason}`))
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    const last = targets.length - 1
    const moves: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
    }
    const next = moves[event.key]
    if (next !== undefined) {
      event.preventDefault()
      setActive(next)
      setRefusal(null)
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      choose(targets[active])
    }
  }

  return (
    <div className="wf-connect">
      <p className="wf-connect__hint" id={`${listId}-hint`}>
        {t('connect:hint')}
      </p>
      <ul
        className="wf-connect__list"
        role="listbox"
        tabIndex={0}
        data-autofocus
        aria-label={t('connect:targets')}
        aria-describedby={`${listId}-hint`}
        aria-activedescendant={optionId(active)}
        onKeyDown={onKeyDown}
      >
        {targets.map((target, i) => {
          const definition = getNodeDefinition(target.type)
          return (
            <li
              key={`${target.sourceHandle}:${target.nodeId}:${target.handle}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className="wf-connect__option"
              data-node-id={target.nodeId}
              data-handle={target.handle}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setActive(i)
                choose(target)
              }}
            >
              <span className="wf-connect__label">
                {target.sourcePort ? `${portLabel(target.sourcePort, t)} → ` : ''}
                {target.label}
              </span>
              <span className="wf-connect__meta">
                {definition ? t(definition.labelKey) : target.type} · {target.nodeId} →{' '}
                {t(`connect:handle.${target.handle}`, { defaultValue: target.handle })}
              </span>
              {target.refusal === 'CYCLE' || target.refusal === 'DUPLICATE' ? (
                <span className="wf-connect__tag">{t(`connect:tag.${target.refusal}`)}</span>
              ) : null}
            </li>
          )
        })}
      </ul>
      {refusal !== null ? (
        <p className="wf-connect__refusal" role="alert">
          {refusal}
        </p>
      ) : null}
    </div>
  )
}
