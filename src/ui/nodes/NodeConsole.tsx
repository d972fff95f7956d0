/**
 * A node's console: streamed text and guard alerts, rendered as TEXT only (never HTML).
 * Sticks to the bottom while text streams in, unless the person scrolled up to read.
 */
import { memo, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react'
import { IterationConsole } from '../run/console/IterationConsole.tsx'
import { LiveConsoleContent } from '../run/console/ConsoleContent.tsx'
import { usePickedIteration } from '../run/useIterationPick.ts'
import { useMarkFull } from '../run/console/useMarkFull.ts'
import { ApprovalCards } from '../run/approval/LazyApprovalCards.tsx'
import { useNodeText } from './nodeText.ts'

export interface NodeConsoleProps {
  nodeId: string
  /** The console dropped its oldest text (the run view says so). */
  cut?: boolean
  /** The box stays for text to come (NodeRunState.consoleKept). */
  kept?: boolean
  /** The box's height: the full NODE_CONSOLE_BOX_PX, or less where the next node is close. */
  boxPx: number
}

/**
 * A rerun keeps the box the last run left full at that full size (`data-kept`, canvas.css) until
 * the node ends, so the node keeps its size while its text is cleared and streams in again. Runs
 * in the commit that queues the node, before useMarkFull's ResizeObserver next runs: `data-full`
 * still says whether the last run's text filled the box, even when the console was already drawn
 * empty. A box the last run left partly filled shrinks as before.
 */
function useKeepFullBox(box: RefObject<HTMLDivElement | null>, kept: boolean): void {
  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    element.toggleAttribute('data-kept', kept && element.hasAttribute('data-full'))
  }, [box, kept])
}

export const NodeConsole = memo(function NodeConsole({ nodeId, cut, kept, boxPx }: NodeConsoleProps) {
  const text = useNodeText()
  const [collapsed, setCollapsed] = useState(false)
  const body = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  // A loop body node shows the iteration its loop's picker shows, once one is picked.
  const picked = usePickedIteration(nodeId)
  useMarkFull(body, content)
  useKeepFullBox(body, kept === true)

  return (
    <div className="wf-console nodrag nowheel" data-collapsed={collapsed || undefined}>
      <button
        type="button"
        className="wf-console__toggle"
        aria-expanded={!collapsed}
        onClick={() => setCollapsed((c) => !c)}
        title={collapsed ? text.expandConsole : text.collapseConsole}
      >
        <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> {text.console}
      </button>
      <div
        ref={body}
        className="wf-console__body wf-console-scroll"
        data-testid="node-console"
        hidden={collapsed}
        style={{ '--console-max-h': `${boxPx}px` } as CSSProperties}
        data-iteration={picked === undefined ? undefined : (picked?.key ?? '')}
      >
        <div ref={content} className="wf-console-scroll__content">
          {picked === undefined ? (
            <LiveConsoleContent nodeId={nodeId} cut={cut} />
          ) : (
            <IterationConsole record={picked} />
          )}
          <ApprovalCards nodeId={nodeId} />
        </div>
      </div>
    </div>
  )
})
