/**
 * The app shell: toolbar on top; flows and palette on the left; the canvas in the middle; the
 * inspector on the right. Each panel is its own component; areas add their panels here.
 */
import { lazy, Suspense } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { useAreaRequested } from './store/areaStore.ts'
import { useUi } from './store/uiStore.ts'
import { CanvasArea } from './ui/canvas/CanvasArea.tsx'
import { EditorKeys } from './ui/canvas/EditorKeys.tsx'
import { FlowList } from './ui/flows/FlowList.tsx'
import { Inspector } from './ui/inspector/Inspector.tsx'
import { ErrorBanner } from './ui/kit/ErrorBanner.tsx'
import { StatusNotes } from './ui/kit/StatusNotes.tsx'
import { Palette } from './ui/palette/Palette.tsx'
import { useThemeSync } from './ui/theme/useTheme.ts'
import { Toolbar } from './ui/toolbar/Toolbar.tsx'

// Dialogs and run details are chunks of their own; an area's dialogs mount (and their code
// loads) once the area was asked for, so the page's start loads none of them.
const ImportHost = lazy(() => import('./ui/import/ImportHost.tsx').then((m) => ({ default: m.ImportHost })))
const NodeRunDetails = lazy(() =>
  import('./ui/run/NodeRunDetails.tsx').then((m) => ({ default: m.NodeRunDetails })),
)
const SettingsHost = lazy(() =>
  import('./ui/settings/SettingsHost.tsx').then((m) => ({ default: m.SettingsHost })),
)
const TemplatesHost = lazy(() =>
  import('./ui/templates/TemplatesHost.tsx').then((m) => ({ default: m.TemplatesHost })),
)

const ShortcutSheet = lazy(() =>
  import('./ui/shortcuts/ShortcutSheet.tsx').then((m) => ({ default: m.ShortcutSheet })),
)

const renderRunDetails = (nodeId: string) => <NodeRunDetails nodeId={nodeId} />

export function App() {
  useThemeSync()
  const settings = useAreaRequested('settings')
  const workflows = useAreaRequested('workflows')
  const templates = useAreaRequested('templates')
  const shortcuts = useUi((s) => s.shortcutsOpen)
  return (
    <ReactFlowProvider>
      <div className="wf-app">
        <Toolbar />
        <ErrorBanner />
        <div className="wf-main">
          <aside className="wf-left">
            <FlowList />
            <Palette />
          </aside>
          <CanvasArea />
          <Inspector renderNodeExtras={renderRunDetails} />
        </div>
        <StatusNotes />
        <Suspense fallback={null}>
          {templates ? <TemplatesHost /> : null}
          {settings ? <SettingsHost /> : null}
          {workflows ? <ImportHost /> : null}
          {shortcuts ? <ShortcutSheet /> : null}
        </Suspense>
        <EditorKeys />
      </div>
    </ReactFlowProvider>
  )
}
