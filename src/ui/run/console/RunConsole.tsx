/**
 * A larger copy of a node's console (inspector): the same lines as the node body, scrolled to
 * the newest text unless the person scrolled up to read.
 */
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { NodeRunFacts } from '../../../store/runStore.ts'
import { usePickedIteration } from '../useIterationPick.ts'
import { LiveConsoleContent } from './ConsoleContent.tsx'
import { IterationConsole } from './IterationConsole.tsx'
import { useMarkFull } from './useMarkFull.ts'

export function RunConsole({ nodeId, state }: { nodeId: string; state: NodeRunFacts }) {
  const { t } = useTranslation('run')
  const box = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const picked = usePickedIteration(nodeId)
  useMarkFull(box, content)

  return (
    <div
      ref={box}
      className="wf-run-console-box wf-console-scroll"
      data-testid="inspector-console"
      data-node-id={nodeId}
      tabIndex={0}
      aria-label={t('details.console')}
      data-iteration={picked === undefined ? undefined : (picked?.key ?? '')}
    >
      <div ref={content} className="wf-console-scroll__content">
        {picked !== undefined ? (
          <IterationConsole record={picked} testIds={false} />
        ) : (
          <>
            {state.hasConsole ? null : <span className="wf-run-muted">{t('console.empty')}</span>}
            <LiveConsoleContent nodeId={nodeId} cut={state.consoleCut} testIds={false} />
          </>
        )}
      </div>
    </div>
  )
}
