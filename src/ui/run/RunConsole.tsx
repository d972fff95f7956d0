/**
 * A larger copy of a node's console (inspector): the same lines as the node body, scrolled to
 * the newest text unless the person scrolled up to read.
 */
import { useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { NodeRunState } from '../../store/runStore.ts'
import { ConsoleContent } from './ConsoleContent.tsx'

/** How close to the bottom (px) still counts as "following" the stream. */
const FOLLOW_SLACK_PX = 8

export function RunConsole({ nodeId, state }: { nodeId: string; state: NodeRunState }) {
  const { t } = useTranslation('run')
  const body = useRef<HTMLDivElement>(null)
  const follow = useRef(true)

  useLayoutEffect(() => {
    const el = body.current
    if (el && follow.current) el.scrollTop = el.scrollHeight
  }, [state.consoleLines])

  return (
    <div
      ref={body}
      className="wf-run-console-box"
      data-testid="inspector-console"
      data-node-id={nodeId}
      tabIndex={0}
      aria-label={t('details.console')}
      onScroll={(e) => {
        const el = e.currentTarget
        follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK_PX
      }}
    >
      {state.consoleLines.length === 0 ? <span className="wf-run-muted">{t('console.empty')}</span> : null}
      <ConsoleContent
        lines={state.consoleLines}
        cut={state.consoleCut}
        dropped={state.consoleDropped}
        testIds={false}
      />
    </div>
  )
}
