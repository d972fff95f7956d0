/**
 * The one body every executable node type shares: icon and colour, editable title, run status,
 * a one-line summary of its config, and its console. Memoised; it reads only its own run state.
 */
import { memo, useMemo, type CSSProperties } from 'react'
import type { NodeProps } from '@xyflow/react'
import { getNodeDefinition, nodeCatalog } from '../../nodes/registry.ts'
import { useNodeRunFacts } from '../../store/runStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { NodeConsole } from './NodeConsole.tsx'
import { NodeTitle } from './NodeTitle.tsx'
import { PortHandles } from './PortHandles.tsx'
import { useNodeText } from './nodeText.ts'

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

export const FlowNodeView = memo(function FlowNodeView({ id, data, selected }: NodeProps<WardRfNode>) {
  const { node } = data
  const text = useNodeText()
  // Not the console text: the body renders when the status or the badge changes, not per frame.
  const run = useNodeRunFacts(id)
  const definition = getNodeDefinition(node.type)
  const unsupported = nodeCatalog.role(node.type) === 'placeholder'
  const originalType =
    definition && typeof node.data.config['originalType'] === 'string'
      ? node.data.config['originalType']
      : node.type
  const summary = useMemo(() => safeSummary(node.type, node.data.config), [node.type, node.data.config])
  const ports = useMemo(() => nodeCatalog.ports(node), [node])
  const style = { '--node-accent': definition?.color ?? UNKNOWN_COLOR } as CSSProperties
  // A console only where there is something to read. A running node that has printed nothing
  // shows no empty box (its status dot pulses): a node that grows when it starts, and again at
  // its first line, has React Flow measure it and redraw its edges each time, and a quick node
  // (Template, Output) would grow and shrink back for nothing. For the same reason a rerun keeps
  // the box the last run filled, empty, until the node ends (consoleKept).
  const showConsole = run.hasConsole || run.consoleKept === true

  return (
    <div
      className={`wf-node${unsupported ? ' wf-node--unsupported' : ''}`}
      data-testid="flow-node"
      data-node-id={id}
      data-node-type={node.type}
      data-status={run.status}
      data-selected={selected || undefined}
      style={style}
    >
      <PortHandles ports={ports.inputs} side="input" />
      <div className="wf-node__header">
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
        <span className={`wf-status wf-status--${run.status}`} title={text.status[run.status] ?? run.status}>
          <span className="visually-hidden">{text.status[run.status] ?? run.status}</span>
        </span>
      </div>
      {summary !== '' || run.badge ? (
        <div className="wf-node__summary">
          {summary !== '' ? <span className="wf-node__summary-text">{summary}</span> : null}
          {run.badge ? <span className="wf-node__badge">{run.badge}</span> : null}
        </div>
      ) : null}
      {showConsole ? <NodeConsole nodeId={id} cut={run.consoleCut} kept={run.consoleKept} /> : null}
      <PortHandles ports={ports.outputs} side="output" />
    </div>
  )
})
