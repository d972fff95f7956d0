/**
 * A larger copy of a node's console (inspector): the same lines as the node body, scrolled to
 * the newest text unless the person scrolled up to read.
 */
import { useCallback, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { NodeRunFacts } from '../../store/runStore.ts'
import { LiveConsoleContent } from './ConsoleContent.tsx'

/** How close to the bottom (px) still counts as "following" the stream. */
const FOLLOW_SLACK_PX = 8

export function RunConsole({ nodeId, state }: { nodeId: string; state: NodeRunFacts }) {
  const { t } = useTranslation('run')
  const body = useRef<HTMLDivElement>(null)
  const follow = useRef(true)

  // Called after each append, outside React (the console draws itself while text streams).
  const scroll = useCallback(() => {
    const el = body.current
    if (el && follow.current) el.scrollTop = el.scrollHeight
  }, [])

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
      {state.hasConsole ? null : <span className="wf-run-muted">{t('console.empty')}</span>}
      <LiveConsoleContent nodeId={nodeId} cut={state.consoleCut} testIds={false} onDrawn={scroll} />
    </div>
  )
}
