/**
 * The one body every executable node type shares: icon and colour, editable title, run status,
 * a one-line summary of its config, and its console. Memoised; it reads only its own run state.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react'
import type { NodeProps } from '@xyflow/react'
import { getNodeDefinition, nodeCatalog } from '../../nodes/registry.ts'
import { NODE_BODY_HEIGHT_PX } from '../../defaults.ts'
import { flowStore } from '../../store/flowStore.ts'
import { useNodeRunFacts } from '../../store/runStore.ts'
import { uiStore } from '../../store/uiStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { useLoadedComponent } from '../useLoadedComponent.ts'
import { consoleBoxPx, useRoomBelowPx } from './consoleRoom.ts'
import { NodeTitle } from './NodeTitle.tsx'
import { PortHandles } from './PortHandles.tsx'
import { usePortsChanged } from './usePortsChanged.ts'
import { useNodeText } from './nodeText.ts'

/**
 * The console (and its drawing code) is a chunk of its own: no node has one until a run or an
 * opened past run gives it text, so the page's start does not carry it. The runs area fetches it
 * with its own code (app/runs/install.ts), so a run's first line waits for nothing.
 */
export const loadNodeConsole = () => import('./NodeConsole.tsx').then((m) => m.NodeConsole)

/**
 * The action menu loads on the first selection or context menu of a node: a flow opens with
 * nothing selected, so the page's start does not carry it.
 */
export const loadNodeActions = () => import('./NodeActions.tsx').then((m) => m.NodeActions)

const UNKNOWN_COLOR = '#718096'

function safeSummary(type: string, config: Record<string, unknown>): string {
  const definition = getNodeDefinition(type)
  if (!definition) return ''
  try {
    return definition.summary(config)
  } catch {
    // A config that does not fit its schema yet (half-typed, imported): no summary, no crash.
    return ''
  }
}

/**
 * Where the console starts below the node's top: the bottom of its header or summary row, in
 * unscaled pixels (offsetTop ignores the canvas's zoom). Read while the node has a console, again
 * when `rows` (what the summary row shows) changes the body's height.
 */
function useHeadPx(watch: boolean, rows: string) {
  const header = useRef<HTMLDivElement>(null)
  const summary = useRef<HTMLDivElement>(null)
  const [px, setPx] = useState(NODE_BODY_HEIGHT_PX)
  useLayoutEffect(() => {
    if (!watch) return
    const last = summary.current ?? header.current
    if (!last) return
    const bottom = last.offsetTop + last.offsetHeight
    if (bottom !== px) setPx(bottom)
  }, [watch, px, rows])
  return { header, summary, px }
}

/**
 * A console with no room below its node (a node placed by hand close under it): a button in the
 * header selects the node and shows the right panel, whose inspector holds the console's copy.
 */
function DockedConsole({ nodeId, label, name }: { nodeId: string; label: string; name: string }) {
  const open = (): void => {
    flowStore.getState().actions.select([nodeId])
    if (uiStore.getState().layout.rightHidden) uiStore.getState().setLayout({ rightHidden: false })
  }
  return (
    <button
      type="button"
      className="wf-node__docked nodrag"
      data-testid="node-console-docked"
      title={label}
      aria-label={label}
      onClick={open}
    >
      <span aria-hidden="true">▤</span> {name}
    </button>
  )
}

export const FlowNodeView = memo(function FlowNodeView({ id, data, selected }: NodeProps<WardRfNode>) {
  const { node } = data
  const text = useNodeText()
  // Not the console text: the body renders when the status or the badge changes, not per frame.
  const run = useNodeRunFacts(id)
  const definition = getNodeDefinition(node.type)
  const unsupported = nodeCatalog.role(node.type) === 'placeholder'
  // A loop: a box its body's nodes sit in (React Flow parent node, store/loopNesting.ts).
  const container = definition?.engine.container === true
  const originalType =
    definition && typeof node.data.config['originalType'] === 'string'
      ? node.data.config['originalType']
      : node.type
  const summary = useMemo(() => safeSummary(node.type, node.data.config), [node.type, node.data.config])
  const ports = useMemo(() => nodeCatalog.ports(node), [node])
  usePortsChanged(id, ports)
  const style = { '--node-accent': definition?.color ?? UNKNOWN_COLOR } as CSSProperties
  // A console only where there is something to read. A running node that has printed nothing
  // shows no empty box (its status dot pulses): a node that grows when it starts, and again at
  // its first line, has React Flow measure it and redraw its edges each time, and a quick node
  // (Template, Output) would grow and shrink back for nothing. For the same reason a rerun keeps
  // the box the last run filled, empty, until the node ends (consoleKept).
  const showConsole = run.hasConsole || run.consoleKept === true
  const NodeConsole = useLoadedComponent(loadNodeConsole, showConsole)

  // The console takes the room below the body, up to the next node (consoleRoom.ts).
  // Why a node never started (not taken, or after a failure), on its body: readable at a glance.
  const skip = run.status === 'skipped' && run.skipCode !== 'stopped' ? run.skipReason : undefined
  const head = useHeadPx(
    showConsole,
    `${summary}\n${run.badge ?? ''}\n${skip ?? ''}\n${run.cached?.reason ?? ''}`,
  )
  const room = useRoomBelowPx(id, showConsole)
  const boxPx = showConsole ? consoleBoxPx(room, head.px) : null
  const docked = showConsole && boxPx === null
  // The action menu: the selected node's button, or the context menu of any node.
  const [menuOpen, setMenuOpen] = useState(false)
  const actionable = definition?.engine.executable === true && !unsupported
  const showActions = actionable && (selected || menuOpen)
  const NodeActions = useLoadedComponent(loadNodeActions, showActions)
  const cached = run.cached ? (text.cached[run.cached.reason] ?? run.cached.reason) : undefined

  return (
    <div
      className={`wf-node${unsupported ? ' wf-node--unsupported' : ''}${container ? ' wf-node--container' : ''}`}
      data-testid="flow-node"
      data-node-id={id}
      data-node-type={node.type}
      data-status={run.status}
      data-skip={run.status === 'skipped' ? run.skipCode : undefined}
      data-selected={selected || undefined}
      data-pinned={node.pinned ? true : undefined}
      style={style}
      onContextMenu={
        actionable
          ? (event) => {
              event.preventDefault()
              flowStore.getState().actions.select([id])
              setMenuOpen(true)
            }
          : undefined
      }
    >
      <PortHandles ports={ports.inputs} side="input" />
      <div className="wf-node__header" ref={head.header}>
        <span className="wf-node__icon" aria-hidden="true">
          {definition?.icon ?? '?'}
        </span>
        <div className="wf-node__heading">
          <NodeTitle nodeId={id} label={node.data.label} hint={text.rename} />
          <span className="wf-node__meta">
            {unsupported ? `${text.unsupported}: ${originalType}` : text.typeLabel(node.type)} ·{' '}
            <code>{id}</code>
          </span>
        </div>
        {node.pinned ? (
          <span
            className="wf-node__pin"
            data-testid="node-pinned"
            title={text.pinned}
            aria-label={text.pinned}
          >
            📌
          </span>
        ) : null}
        {showActions && NodeActions ? (
          <NodeActions
            nodeId={id}
            pinned={node.pinned !== undefined}
            hasOutput={run.output !== undefined}
            inBody={node.parentId !== undefined}
            open={menuOpen}
            onOpenChange={setMenuOpen}
          />
        ) : null}
        {docked ? <DockedConsole nodeId={id} label={text.consoleDocked} name={text.console} /> : null}
        <span className={`wf-status wf-status--${run.status}`} title={text.status[run.status] ?? run.status}>
          <span className="visually-hidden">{text.status[run.status] ?? run.status}</span>
        </span>
      </div>
      {summary !== '' || run.badge || skip || cached ? (
        <div className="wf-node__summary" ref={head.summary}>
          {summary !== '' ? <span className="wf-node__summary-text">{summary}</span> : null}
          {run.badge ? <span className="wf-node__badge">{run.badge}</span> : null}
          {cached ? (
            <span
              className="wf-node__cached"
              data-testid="node-cached"
              data-reason={run.cached?.reason}
              title={cached}
            >
              {cached}
            </span>
          ) : null}
          {skip ? (
            <span className="wf-node__skip" data-testid="node-skip-reason" title={skip}>
              {skip}
            </span>
          ) : null}
        </div>
      ) : null}
      {boxPx !== null && NodeConsole ? (
        <NodeConsole nodeId={id} cut={run.consoleCut} kept={run.consoleKept} boxPx={boxPx} />
      ) : null}
      <PortHandles ports={ports.outputs} side="output" />
    </div>
  )
})
