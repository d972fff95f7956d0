/**
 * The flow canvas. Controlled React Flow: the store is the source of truth, every change goes
 * through a store action (so undo/redo and autosave see it), and the node/edge arrays are
 * memoised per document node so React Flow re-renders only what changed.
 */
import { useCallback, useMemo, type DragEvent, type ReactNode } from 'react'
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useStore as useRfStore,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnMoveEnd,
} from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import {
  CANVAS_DETAIL_MIN_ZOOM,
  CANVAS_VISIBLE_ONLY_MIN_NODES,
  FIT_VIEW_MAX_ZOOM,
  MINIMAP_MAX_NODES,
  SNAP_GRID_PX,
} from '../../defaults.ts'
import { getNodeDefinition, nodeDefinitions } from '../../nodes/registry.ts'
import { flowStore, useFlowStore, useReadOnly } from '../../store/flowStore.ts'
import { noticeStore } from '../../store/noticeStore.ts'
import { createRfEdgesSelector, createRfNodesSelector, type WardRfNode } from '../../store/rfAdapter.ts'
import { useUi } from '../../store/uiStore.ts'
import { useServices } from '../services.ts'
import { NodeTextContext, type NodeText } from '../nodes/nodeText.ts'
import { useResolvedTheme } from '../theme/useTheme.ts'
import { nodeTypes } from './nodeTypes.ts'
import { useCanvasCommands } from './commands.ts'
import { PALETTE_MIME } from './dnd.ts'
import { useFitOnOpen } from './useFitOnOpen.ts'
import { useRunPathEdges } from './runPathEdges.ts'

const selectRfNodes = createRfNodesSelector()
const selectRfEdges = createRfEdgesSelector()
const SNAP_GRID: [number, number] = [SNAP_GRID_PX, SNAP_GRID_PX]
const FIT_VIEW_OPTIONS = { maxZoom: FIT_VIEW_MAX_ZOOM }
// Props objects are module constants: React Flow compares them by identity, and a new object
// per render (every drag frame) would re-render all edges.
const DEFAULT_EDGE_OPTIONS = { type: 'smoothstep' }
const PRO_OPTIONS = { hideAttribution: true }
const STATUSES = ['idle', 'queued', 'running', 'success', 'error', 'skipped', 'stopped'] as const
const CACHED_REASONS = ['pinned', 'reused', 'unchanged'] as const

const onNodesChange = (changes: NodeChange<WardRfNode>[]): void =>
  flowStore.getState().actions.onNodesChange(changes)
const onEdgesChange = (changes: EdgeChange[]): void => flowStore.getState().actions.onEdgesChange(changes)
// A node dropped inside a loop joins its body; dragged out of it, it leaves (store/loopNesting.ts).
const onNodeDragStop = (_event: unknown, _node: WardRfNode, dragged: WardRfNode[]): void =>
  flowStore.getState().actions.dropNodes(dragged.map((n) => n.id))
const onMoveEnd: OnMoveEnd = (_event, viewport) => flowStore.getState().actions.setViewport(viewport)

/** Connects two handles, or says why not (a loop, a self-loop) in a status note. */
export function connectOrExplain(connection: Connection): boolean {
  const result = flowStore.getState().actions.connect(connection)
  if (!result.ok && result.reason !== 'DUPLICATE') {
    noticeStore.getState().note(`canvas.refused.${result.reason}`, undefined, 'warning')
  }
  return result.ok
}

const onConnect = (connection: Connection): void => void connectOrExplain(connection)

function onDragOver(event: DragEvent): void {
  const types = event.dataTransfer.types
  if (types.includes(PALETTE_MIME) || types.includes('Files')) {
    event.preventDefault()
    event.dataTransfer.dropEffect = types.includes('Files') ? 'copy' : 'move'
  }
}

export interface CanvasProps {
  /**
   * Shown over the canvas (the welcome card of an empty flow). It sits inside the drop target,
   * so a node dropped on it lands there like anywhere else on the canvas.
   */
  overlay?: ReactNode
}

export function Canvas({ overlay }: CanvasProps = {}) {
  const { t, i18n } = useTranslation()
  const nodes = useFlowStore(selectRfNodes)
  // The run's path on the edges (taken / not taken), for the live run and a past one alike.
  const edges = useRunPathEdges(useFlowStore(selectRfEdges))
  const flowId = useFlowStore((s) => s.flowId)
  // A past run is shown: the canvas is a view (select, pan and zoom; no moves, no connections).
  const readOnly = useReadOnly()
  const snapToGrid = useUi((s) => s.snapToGrid)
  const minimap = useUi((s) => s.minimap)
  const theme = useResolvedTheme()
  // A boolean, so the canvas re-renders only when the zoom crosses the threshold.
  const far = useRfStore((s) => s.transform[2] < CANVAS_DETAIL_MIN_ZOOM)
  const commands = useCanvasCommands()
  const services = useServices()

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(PALETTE_MIME)
      if (type) {
        event.preventDefault()
        commands.addAtScreenPoint(type, { x: event.clientX, y: event.clientY })
        return
      }
      const file = event.dataTransfer.files[0]
      if (file && services.import) {
        event.preventDefault()
        void services.import.importFile(file)
      }
    },
    [commands, services.import],
  )

  const nodeText = useMemo<NodeText>(() => {
    const labels = new Map(nodeDefinitions.map((d) => [d.type, t(d.labelKey)]))
    return {
      typeLabel: (type) => labels.get(type) ?? type,
      status: Object.fromEntries(STATUSES.map((s) => [s, t(`status.${s}`)])),
      console: t('node.console'),
      collapseConsole: t('node.collapseConsole'),
      expandConsole: t('node.expandConsole'),
      consoleDocked: t('node.consoleDocked'),
      rename: t('node.rename'),
      unsupported: t('node.unsupported'),
      unknownType: t('node.unknownType'),
      noteEmpty: t('node.noteEmpty'),
      noteEditHint: t('node.noteEditHint'),
      cached: Object.fromEntries(CACHED_REASONS.map((r) => [r, t(`node.cached.${r}`)])),
      pinned: t('node.pinned'),
    }
    // i18n.language: the labels must follow a language switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, i18n.language])

  const ariaLabels = useMemo(
    () => ({
      'node.a11yDescription.default': t('canvas.a11y.node'),
      'node.a11yDescription.keyboardDisabled': t('canvas.a11y.nodeNoKeyboard'),
      'node.a11yDescription.ariaLiveMessage': ({
        direction,
        x,
        y,
      }: {
        direction: string
        x: number
        y: number
      }) => t('canvas.a11y.moved', { direction, x, y }),
      'edge.a11yDescription.default': t('canvas.a11y.edge'),
      'controls.ariaLabel': t('canvas.controls'),
      'controls.zoomIn.ariaLabel': t('canvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('canvas.zoomOut'),
      'controls.fitView.ariaLabel': t('canvas.fitView'),
      'controls.interactive.ariaLabel': t('canvas.interactive'),
      'minimap.ariaLabel': t('canvas.minimap'),
      'handle.ariaLabel': t('canvas.handle'),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  )

  useFitOnOpen(flowId)
  const defaultViewport = useMemo(() => flowStore.getState().viewport, [flowId]) // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <NodeTextContext.Provider value={nodeText}>
      <div
        className={far ? 'wf-canvas wf-canvas--far' : 'wf-canvas'}
        onDragOver={onDragOver}
        onDrop={onDrop}
        aria-label={t('canvas.label')}
        role="region"
      >
        <ReactFlow<WardRfNode>
          key={flowId ?? 'none'}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onNodeDragStop={onNodeDragStop}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          onMoveEnd={onMoveEnd}
          defaultViewport={defaultViewport}
          fitViewOptions={FIT_VIEW_OPTIONS}
          snapToGrid={snapToGrid}
          snapGrid={SNAP_GRID}
          deleteKeyCode={null}
          selectionKeyCode="Shift"
          multiSelectionKeyCode={['Meta', 'Control']}
          colorMode={theme}
          minZoom={0.1}
          onlyRenderVisibleElements={nodes.length > CANVAS_VISIBLE_ONLY_MIN_NODES}
          proOptions={PRO_OPTIONS}
          defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
          ariaLabelConfig={ariaLabels}
        >
          <Background
            variant={BackgroundVariant.Dots}
            gap={SNAP_GRID_PX}
            size={1.2}
            color="var(--canvas-dot)"
          />
          <Controls showInteractive={false} />
          {minimap && nodes.length > 0 && nodes.length <= MINIMAP_MAX_NODES ? (
            <MiniMap pannable zoomable nodeColor={miniMapColor} nodeStrokeWidth={0} />
          ) : null}
        </ReactFlow>
        {overlay}
      </div>
    </NodeTextContext.Provider>
  )
}

function miniMapColor(node: WardRfNode): string {
  return getNodeDefinition(node.data.node.type)?.color ?? '#718096'
}
