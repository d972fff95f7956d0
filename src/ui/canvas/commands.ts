/**
 * Canvas commands shared by the toolbar, palette, problems list and keyboard shortcuts. They
 * need React Flow's viewport (inside ReactFlowProvider) and write through store actions.
 */
import { useMemo } from 'react'
import { useReactFlow, useStore as useRfStore } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { FOCUS_NODE_MAX_ZOOM, PASTE_OFFSET_PX, VIEWPORT_ANIMATION_MS } from '../../defaults.ts'
import type { XY } from '../../engine/index.ts'
import { flowStore } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { uiStore } from '../../store/uiStore.ts'
import { fitFlow } from './fitFlow.ts'
import { layoutLeftToRight } from './layout.ts'
import { freeSpot, newNodeAt } from './newNode.ts'

export interface CanvasCommands {
  /** Adds a node centred on a screen point (a drop). */
  addAtScreenPoint(type: string, point: XY): string | null
  /** Adds a node in the middle of the visible canvas (click or Enter on a palette item). */
  addAtCenter(type: string): string | null
  focusNode(id: string): void
  fitView(): void
  autoLayout(): Promise<void>
  duplicateSelection(): void
  removeSelection(): void
  undo(): void
  redo(): void
}

/**
 * True (and says why in a status note) while a past run is shown: the flow is a view then, and
 * an edit asked for by a key or a drop must not pass silently. The store refuses it anyway.
 */
export function refuseReadOnly(): boolean {
  if (!flowStore.getState().readOnly) return false
  noticeStore.getState().note('canvas.readOnly', undefined, 'warning')
  return true
}

export function useCanvasCommands(): CanvasCommands {
  const rf = useReactFlow()
  const domNode = useRfStore((s) => s.domNode)
  const { t } = useTranslation()
  return useMemo<CanvasCommands>(() => {
    const add = (type: string, center: XY, fanOut: boolean): string | null => {
      if (refuseReadOnly()) return null
      const node = newNodeAt(type, center, t, uiStore.getState().snapToGrid)
      if (!node) return null
      if (fanOut) {
        const { nodes, measured } = flowStore.getState()
        node.position = freeSpot(node.position, type, nodes, measured)
      }
      return flowStore.getState().actions.addNode(node)
    }
    return {
      addAtScreenPoint: (type, point) => add(type, rf.screenToFlowPosition(point), false),
      addAtCenter: (type) => {
        const rect = domNode?.getBoundingClientRect()
        const center = rect
          ? rf.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
          : { x: 0, y: 0 }
        return add(type, center, true)
      },
      focusNode: (id) => {
        flowStore.getState().actions.select([id])
        void rf.fitView({ nodes: [{ id }], duration: VIEWPORT_ANIMATION_MS, maxZoom: FOCUS_NODE_MAX_ZOOM })
      },
      fitView: () => fitFlow(rf, domNode, VIEWPORT_ANIMATION_MS),
      autoLayout: async () => {
        const { nodes, edges, measured, actions } = flowStore.getState()
        if (nodes.length === 0 || refuseReadOnly()) return
        const positions = await layoutLeftToRight(nodes, edges, measured)
        actions.setPositions(positions)
        noticeStore.getState().note('canvas.laidOut', undefined, 'success')
        // Next frame: React Flow has the new positions by then.
        requestAnimationFrame(() => fitFlow(rf, domNode, VIEWPORT_ANIMATION_MS))
      },
      duplicateSelection: () => {
        if (refuseReadOnly()) return
        const ids = flowStore
          .getState()
          .actions.duplicateSelection({ x: PASTE_OFFSET_PX, y: PASTE_OFFSET_PX })
        if (ids.length > 0) noticeStore.getState().note('canvas.duplicated', { count: ids.length }, 'success')
      },
      removeSelection: () => void (refuseReadOnly() || flowStore.getState().actions.removeSelection()),
      undo: () => void (refuseReadOnly() || flowStore.getState().actions.undo()),
      redo: () => void (refuseReadOnly() || flowStore.getState().actions.redo()),
    }
  }, [rf, domNode, t])
}
