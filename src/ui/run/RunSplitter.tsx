/**
 * The run panel's top edge: drag it (pointer) or use the arrow keys on it (Home/End for the
 * extremes) to give the run panel more or less room. An ARIA window splitter.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { RUN_PANEL_HEIGHT_RANGE_PX } from '../../defaults.ts'
import { uiStore, useUi } from '../../store/uiStore.ts'

const STEP_PX = RUN_PANEL_HEIGHT_RANGE_PX.step ?? 24

export function RunSplitter() {
  const { t } = useTranslation('run')
  const height = useUi((s) => s.layout.runPanelHeightPx)
  const drag = useRef<{ y: number; height: number } | null>(null)
  const set = (px: number): void => uiStore.getState().setLayout({ runPanelHeightPx: px })

  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    event.currentTarget.setPointerCapture(event.pointerId)
    drag.current = { y: event.clientY, height }
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const start = drag.current
    if (start) set(start.height + start.y - event.clientY)
  }
  const onPointerUp = (): void => {
    drag.current = null
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next: Record<string, number> = {
      ArrowUp: height + STEP_PX,
      ArrowDown: height - STEP_PX,
      Home: RUN_PANEL_HEIGHT_RANGE_PX.max,
      End: RUN_PANEL_HEIGHT_RANGE_PX.min,
    }
    const px = next[event.key]
    if (px === undefined) return
    event.preventDefault()
    set(px)
  }

  return (
    <div
      className="wf-run-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label={t('panel.resize')}
      aria-valuemin={RUN_PANEL_HEIGHT_RANGE_PX.min}
      aria-valuemax={RUN_PANEL_HEIGHT_RANGE_PX.max}
      aria-valuenow={height}
      tabIndex={0}
      data-testid="run-panel-splitter"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  )
}
