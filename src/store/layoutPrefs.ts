/**
 * The shell's layout a person chose (side panels hidden, the run panel's height), remembered in
 * localStorage per browser: it belongs to the screen, not to a flow or the settings file.
 */
import { z } from '../zodMini.ts'
import { RUN_PANEL_HEIGHT_PX, RUN_PANEL_HEIGHT_RANGE_PX } from '../defaults.ts'

const STORAGE_KEY = 'wardflow.layout'

const layoutSchema = z.object({
  leftHidden: z._default(z.boolean(), false),
  rightHidden: z._default(z.boolean(), false),
  runPanelHeightPx: z._default(z.number(), RUN_PANEL_HEIGHT_PX),
})

export type LayoutPrefs = z.infer<typeof layoutSchema>

export function clampRunPanelHeight(px: number): number {
  return Math.round(Math.min(RUN_PANEL_HEIGHT_RANGE_PX.max, Math.max(RUN_PANEL_HEIGHT_RANGE_PX.min, px)))
}

export function readLayoutPrefs(): LayoutPrefs {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY)
    const parsed = layoutSchema.safeParse(raw ? JSON.parse(raw) : {})
    if (parsed.success)
      return { ...parsed.data, runPanelHeightPx: clampRunPanelHeight(parsed.data.runPanelHeightPx) }
  } catch {
    // Blocked storage or a damaged entry: the default layout.
  }
  return { leftHidden: false, rightHidden: false, runPanelHeightPx: RUN_PANEL_HEIGHT_PX }
}

export function writeLayoutPrefs(prefs: LayoutPrefs): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(prefs))
  } catch {
    // Not remembered; the layout still applies for this session.
  }
}
