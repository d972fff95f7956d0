/**
 * A node's console: streamed text and guard alerts, rendered as TEXT only (never HTML).
 * Sticks to the bottom while text streams in, unless the person scrolled up to read.
 */
import { memo, useRef, useState } from 'react'
import { LiveConsoleContent } from '../run/ConsoleContent.tsx'
import { useMarkFull } from '../run/useMarkFull.ts'
import { useNodeText } from './nodeText.ts'

export interface NodeConsoleProps {
  nodeId: string
  /** The console dropped its oldest text (the run view says so). */
  cut?: boolean
}

export const NodeConsole = memo(function NodeConsole({ nodeId, cut }: NodeConsoleProps) {
  const text = useNodeText()
  const [collapsed, setCollapsed] = useState(false)
  const body = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  useMarkFull(body, content)

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
      >
        <div ref={content} className="wf-console-scroll__content">
          <LiveConsoleContent nodeId={nodeId} cut={cut} />
        </div>
      </div>
    </div>
  )
})
