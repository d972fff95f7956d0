/**
 * A node's console: streamed text and guard alerts, rendered as TEXT only (never HTML).
 * Sticks to the bottom while text streams in, unless the person scrolled up to read.
 */
import { memo, useLayoutEffect, useRef, useState } from 'react'
import type { ConsoleLine } from '../../store/runStore.ts'
import { ConsoleContent } from '../run/ConsoleContent.tsx'
import { useNodeText } from './nodeText.ts'

export interface NodeConsoleProps {
  lines: readonly ConsoleLine[]
  /** The console dropped its oldest text (the run view says so). */
  cut?: boolean
  /** Characters cut from the front so far (NodeRunState.consoleDropped). */
  dropped?: number
}

export const NodeConsole = memo(function NodeConsole({ lines, cut, dropped }: NodeConsoleProps) {
  const text = useNodeText()
  const [collapsed, setCollapsed] = useState(false)
  const body = useRef<HTMLDivElement>(null)
  const stick = useRef(true)

  useLayoutEffect(() => {
    const el = body.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [lines, collapsed])

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
        className="wf-console__body"
        data-testid="node-console"
        hidden={collapsed}
        onScroll={(e) => {
          const el = e.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8
        }}
      >
        <ConsoleContent lines={lines} cut={cut} dropped={dropped} />
      </div>
    </div>
  )
})
