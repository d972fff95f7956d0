/**
 * The lines of a node console: output text, reasoning (muted and labelled), logs, errors and
 * guard alerts (hints as warnings, trips as errors, with the exact spec text). React renders the
 * container once; ConsoleDom appends what changed in small blocks, so streaming 20,000 tokens
 * costs one small DOM append (and one small block of layout) per animation frame.
 */
import { memo, useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { CONSOLE_MAX_CHARS } from '../../defaults.ts'
import type { ConsoleLine } from '../../store/runStore.ts'
import { ConsoleDom } from './consoleDom.ts'
import { formatNumber } from './format.ts'
import './run.css'

export interface ConsoleContentProps {
  lines: readonly ConsoleLine[]
  /** The console dropped its oldest text (it keeps the last CONSOLE_MAX_CHARS characters). */
  cut?: boolean
  /** Characters cut from the front so far (NodeRunState.consoleDropped): the view trims as many. */
  dropped?: number
  /** True in the node body: guard lines get `data-testid="guard-alert"` (ids stay unique). */
  testIds?: boolean
}

export const ConsoleContent = memo(function ConsoleContent({
  lines,
  cut = false,
  dropped = 0,
  testIds = true,
}: ConsoleContentProps) {
  const { t, i18n } = useTranslation('run')
  const root = useRef<HTMLDivElement>(null)
  const dom = useRef<ConsoleDom | null>(null)
  const reasoningLabel = t('console.reasoning')

  useLayoutEffect(() => {
    const element = root.current
    if (!element) return undefined
    const current = new ConsoleDom(element, { testIds, reasoningLabel })
    dom.current = current
    return () => {
      current.clear()
      dom.current = null
    }
  }, [testIds, reasoningLabel])

  useLayoutEffect(() => {
    dom.current?.sync(lines, dropped)
  }, [lines, dropped, testIds, reasoningLabel])

  return (
    <>
      {cut ? (
        <div className="wf-run-console__cut" role="note">
          {t('console.cut', { chars: formatNumber(CONSOLE_MAX_CHARS, i18n.language) })}
        </div>
      ) : null}
      <div ref={root} className="wf-run-console" />
    </>
  )
})
