/**
 * The app shell: toolbar on top; flows and palette on the left; the canvas in the middle; the
 * inspector on the right. Each panel is its own component; areas add their panels here.
 */
import { lazy } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { CONNECT_NAMESPACE, loadNamespaces, SHORTCUTS_NAMESPACE } from './i18n/index.ts'
import { useAreaRequested } from './store/areaStore.ts'
import { useUi } from './store/uiStore.ts'
import { CanvasArea } from './ui/canvas/CanvasArea.tsx'
import { EditorKeys } from './ui/canvas/EditorKeys.tsx'
import { FlowList } from './ui/flows/FlowList.tsx'
import { Inspector } from './ui/inspector/Inspector.tsx'
import { ErrorBanner } from './ui/kit/ErrorBanner.tsx'
import { FlowBoundary } from './ui/kit/FlowBoundary.tsx'
import { StatusNotes } from './ui/kit/StatusNotes.tsx'
import { Palette } from './ui/palette/Palette.tsx'
import { useThemeSync } from './ui/theme/useTheme.ts'
import { Toolbar } from './ui/toolbar/Toolbar.tsx'
import { useLoadedComponent } from './ui/useLoadedComponent.ts'

// Dialogs and run details are chunks of their own; an area's dialogs load (and mount) once the
// area was asked for, the shortcut sheet (with its catalogue) once opened, so the page's start loads none of them.
// They render without Suspense (useLoadedComponent.ts), so a first open is not held back.
const NodeRunDetails = lazy(() =>
  import('./ui/run/NodeRunDetails.tsx').then((m) => ({ default: m.NodeRunDetails })),
)
const loadImportHost = () => import('./ui/import/ImportHost.tsx').then((m) => m.ImportHost)
const loadSettingsHost = () => import('./ui/settings/SettingsHost.tsx').then((m) => m.SettingsHost)
const loadKnowledgeHost = () => import('./ui/knowledge/KnowledgeHost.tsx').then((m) => m.KnowledgeHost)
const loadBatchHost = () => import('./ui/batch/BatchHost.tsx').then((m) => m.BatchHost)
const loadTemplatesHost = () => import('./ui/templates/TemplatesHost.tsx').then((m) => m.TemplatesHost)
const loadShortcutSheet = () =>
  Promise.all([import('./ui/shortcuts/ShortcutSheet.tsx'), loadNamespaces([SHORTCUTS_NAMESPACE])]).then(
    ([m]) => m.ShortcutSheet,
  )
const loadConnectDialog = () =>
  Promise.all([import('./ui/connect/ConnectDialog.tsx'), loadNamespaces([CONNECT_NAMESPACE])]).then(
    ([m]) => m.ConnectDialog,
  )

const renderRunDetails = (nodeId: string) => <NodeRunDetails nodeId={nodeId} />

export function App() {
  useThemeSync()
  const TemplatesHost = useLoadedComponent(loadTemplatesHost, useAreaRequested('templates'))
  const SettingsHost = useLoadedComponent(loadSettingsHost, useAreaRequested('settings'))
  const KnowledgeHost = useLoadedComponent(loadKnowledgeHost, useAreaRequested('knowledge'))
  const BatchHost = useLoadedComponent(loadBatchHost, useAreaRequested('batch'))
  const ImportHost = useLoadedComponent(loadImportHost, useAreaRequested('workflows'))
  const layout = useUi((s) => s.layout)
  const ShortcutSheet = useLoadedComponent(
    loadShortcutSheet,
    useUi((s) => s.shortcutsOpen),
  )
  const ConnectDialog = useLoadedComponent(
    loadConnectDialog,
    useUi((s) => s.connectFrom !== null),
  )
  return (
    <ReactFlowProvider>
      <div className="wf-app">
        <Toolbar />
        <ErrorBanner />
        <div
          className="wf-main"
          data-left-hidden={layout.leftHidden || undefined}
          data-right-hidden={layout.rightHidden || undefined}
        >
          {layout.leftHidden ? null : (
            <aside className="wf-left">
              <FlowList />
              <Palette />
            </aside>
          )}
          <FlowBoundary part="canvas">
            <CanvasArea />
          </FlowBoundary>
          {layout.rightHidden ? null : (
            <FlowBoundary part="inspector">
              <Inspector renderNodeExtras={renderRunDetails} />
            </FlowBoundary>
          )}
        </div>
        <StatusNotes />
        {TemplatesHost ? <TemplatesHost /> : null}
        {SettingsHost ? <SettingsHost /> : null}
        {KnowledgeHost ? <KnowledgeHost /> : null}
        {ImportHost ? <ImportHost /> : null}
        {BatchHost ? <BatchHost /> : null}
        {ShortcutSheet ? <ShortcutSheet /> : null}
        {ConnectDialog ? <ConnectDialog /> : null}
        <EditorKeys />
      </div>
    </ReactFlowProvider>
  )
}
