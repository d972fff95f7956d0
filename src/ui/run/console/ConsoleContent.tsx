/**
 * The lines of a node console: output text, reasoning (muted and labelled), logs, errors and
 * guard alerts (hints as warnings, trips as errors, with the exact spec text). React renders the
 * container once; ConsoleDom appends what changed in small blocks, so streaming 20,000 tokens
 * costs one small DOM append (and one small block of layout) per animation frame.
 */
import { memo, useLayoutEffect, useRef, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { CONSOLE_DRAW_MIN_INTERVAL_MS, CONSOLE_MAX_CHARS } from '../../../defaults.ts'
import { nodeRunStateNow, subscribeNodeConsole, type ConsoleLine } from '../../../store/runStore.ts'
import { ConsoleDom } from './consoleDom.ts'
import { createDrawThrottle } from './drawThrottle.ts'
import { formatNumber } from '../format.ts'
import '../run.css'

export interface ConsoleContentProps {
  lines: readonly ConsoleLine[]
  /** The console dropped its oldest text (it keeps the last CONSOLE_MAX_CHARS characters). */
  cut?: boolean
  /** Characters cut from the front so far (NodeRunState.consoleDropped): the view trims as many. */
  dropped?: number
  /** True in the node body: guard lines get `data-testid="guard-alert"` (ids stay unique). */
  testIds?: boolean
}

/** The ConsoleDom drawing into `root`, made again when its options change. */
function useConsoleDom(root: RefObject<HTMLDivElement | null>, testIds: boolean, reasoningLabel: string) {
  const { t } = useTranslation('run')
  const systemLabel = t('console.system')
  const dom = useRef<ConsoleDom | null>(null)
  useLayoutEffect(() => {
    const element = root.current
    if (!element) return undefined
    const current = new ConsoleDom(element, { testIds, reasoningLabel, systemLabel })
    dom.current = current
    return () => {
      current.clear()
      dom.current = null
    }
  }, [root, testIds, reasoningLabel, systemLabel])
  return dom
}

function CutNote({ cut }: { cut: boolean }) {
  const { t, i18n } = useTranslation('run')
  if (!cut) return null
  return (
    <div className="wf-run-console__cut" role="note">
      {t('console.cut', { chars: formatNumber(CONSOLE_MAX_CHARS, i18n.language) })}
    </div>
  )
}

export const ConsoleContent = memo(function ConsoleContent({
  lines,
  cut = false,
  dropped = 0,
  testIds = true,
}: ConsoleContentProps) {
  const { t } = useTranslation('run')
  const root = useRef<HTMLDivElement>(null)
  const reasoningLabel = t('console.reasoning')
  const dom = useConsoleDom(root, testIds, reasoningLabel)

  useLayoutEffect(() => {
    dom.current?.sync(lines, dropped)
  }, [dom, lines, dropped, testIds, reasoningLabel])

  return (
    <>
      <CutNote cut={cut} />
      <div ref={root} className="wf-run-console" />
    </>
  )
})

export interface LiveConsoleContentProps {
  nodeId: string
  /** Whether the console dropped its oldest text (NodeRunFacts.consoleCut). */
  cut?: boolean
  testIds?: boolean
  /** Called after text was drawn (outside React). */
  onDrawn?: () => void
}

/**
 * A node's console as the run store holds it, drawn without React while text streams: it
 * subscribes to the node's console and appends in the animation frame the batch arrives in (at
 * most every CONSOLE_DRAW_MIN_INTERVAL_MS), so a streamed reply renders no component at all (the
 * node body and the inspector only render when a status or a figure changes).
 */
export const LiveConsoleContent = memo(function LiveConsoleContent({
  nodeId,
  cut = false,
  testIds = true,
  onDrawn,
}: LiveConsoleContentProps) {
  const { t } = useTranslation('run')
  const root = useRef<HTMLDivElement>(null)
  const reasoningLabel = t('console.reasoning')
  const dom = useConsoleDom(root, testIds, reasoningLabel)
  const drawn = useRef(onDrawn)
  drawn.current = onDrawn

  useLayoutEffect(() => {
    const draw = (lines: readonly ConsoleLine[], dropped = 0): void => {
      dom.current?.sync(lines, dropped)
      drawn.current?.()
    }
    let latest = nodeRunStateNow(nodeId)
    draw(latest.consoleLines, latest.consoleDropped)
    const throttle = createDrawThrottle(
      () => draw(latest.consoleLines, latest.consoleDropped),
      CONSOLE_DRAW_MIN_INTERVAL_MS,
    )
    const unsubscribe = subscribeNodeConsole(nodeId, (state) => {
      latest = state
      throttle.request()
    })
    return () => {
      throttle.cancel()
      unsubscribe()
    }
  }, [dom, nodeId, testIds, reasoningLabel])

  return (
    <>
      <CutNote cut={cut} />
      <div ref={root} className="wf-run-console" />
    </>
  )
})
