/**
 * A node's action menu (`node-actions`, issue 19): a button on the selected node, also opened by
 * the node's context menu. Run from here, run this node, pin / unpin its output. Rendered only
 * for the selected node (or the one whose context menu is open), so it may read its own stores.
 */
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { flowStore, useReadOnly } from '../../store/flowStore.ts'
import { isRunActive, nodeRunStateNow, useRunStore } from '../../store/runStore.ts'
import { useServices } from '../services.ts'

interface NodeActionsProps {
  nodeId: string
  pinned: boolean
  /** The node has an output on screen (live or past run) that a pin can keep. */
  hasOutput: boolean
  /** A node of a loop's body runs inside its loop: it cannot be pinned on its own. */
  inBody: boolean
  open: boolean
  onOpenChange(open: boolean): void
}

export function NodeActions({ nodeId, pinned, hasOutput, inBody, open, onOpenChange }: NodeActionsProps) {
  const { t } = useTranslation('ui')
  const services = useServices()
  const readOnly = useReadOnly()
  const busy = isRunActive(useRunStore((s) => s.phase))
  const menu = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus()
    const close = (event: PointerEvent): void => {
      if (!menu.current?.parentElement?.contains(event.target as Node)) onOpenChange(false)
    }
    document.addEventListener('pointerdown', close, true)
    return () => document.removeEventListener('pointerdown', close, true)
  }, [open, onOpenChange])

  const act = (go: () => void) => () => {
    onOpenChange(false)
    go()
  }
  const runFrom = (mode: 'fromHere' | 'node') => act(() => services.run?.runFrom?.(nodeId, mode))
  const pin = act(() => {
    const state = nodeRunStateNow(nodeId)
    if (!state.output) return
    flowStore.getState().actions.setPinned(nodeId, {
      output: { ...state.output },
      ...(state.notTaken?.length ? { notTaken: [...state.notTaken] } : {}),
    })
  })
  const unpin = act(() => flowStore.getState().actions.setPinned(nodeId, undefined))
  const canRun = !busy && services.run?.runFrom !== undefined

  return (
    <div className="wf-node-actions nodrag nopan">
      <button
        type="button"
        className="wf-node-actions__button"
        data-testid="node-actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('nodeActions.open')}
        title={t('nodeActions.open')}
        onClick={() => onOpenChange(!open)}
      >
        ⋯
      </button>
      {open ? (
        <div
          ref={menu}
          className="wf-node-actions__menu"
          role="menu"
          aria-label={t('nodeActions.open')}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation()
              onOpenChange(false)
            }
          }}
        >
          <button
            type="button"
            role="menuitem"
            data-testid="run-from-here"
            disabled={!canRun}
            onClick={runFrom('fromHere')}
          >
            {t('nodeActions.runFromHere')}
          </button>
          <button
            type="button"
            role="menuitem"
            data-testid="run-node"
            disabled={!canRun}
            onClick={runFrom('node')}
          >
            {t('nodeActions.runNode')}
          </button>
          {inBody && !pinned ? null : pinned ? (
            <button
              type="button"
              role="menuitem"
              data-testid="unpin-output"
              disabled={readOnly}
              onClick={unpin}
            >
              {t('nodeActions.unpin')}
            </button>
          ) : (
            <button
              type="button"
              role="menuitem"
              data-testid="pin-output"
              disabled={readOnly || !hasOutput}
              title={hasOutput ? undefined : t('nodeActions.pinNeedsOutput')}
              onClick={pin}
            >
              {t('nodeActions.pin')}
            </button>
          )}
        </div>
      ) : null}
    </div>
  )
}
