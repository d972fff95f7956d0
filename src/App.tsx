/**
 * The app shell: toolbar on top; flows and palette on the left; the canvas in the middle; the
 * inspector on the right. Each panel is its own component; areas add their panels here.
 */
import { ReactFlowProvider } from '@xyflow/react'
import { CanvasArea } from './ui/canvas/CanvasArea.tsx'
import { EditorKeys } from './ui/canvas/EditorKeys.tsx'
import { FlowList } from './ui/flows/FlowList.tsx'
import { ImportHost } from './ui/import/ImportHost.tsx'
import { Inspector } from './ui/inspector/Inspector.tsx'
import { ErrorBanner } from './ui/kit/ErrorBanner.tsx'
import { StatusNotes } from './ui/kit/StatusNotes.tsx'
import { Palette } from './ui/palette/Palette.tsx'
import { NodeRunDetails } from './ui/run/NodeRunDetails.tsx'
import { SettingsHost } from './ui/settings/SettingsHost.tsx'
import { ShortcutSheet } from './ui/shortcuts/ShortcutSheet.tsx'
import { TemplatesHost } from './ui/templates/TemplatesHost.tsx'
import { useThemeSync } from './ui/theme/useTheme.ts'
import { Toolbar } from './ui/toolbar/Toolbar.tsx'

const renderRunDetails = (nodeId: string) => <NodeRunDetails nodeId={nodeId} />

export function App() {
  useThemeSync()
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
        <ShortcutSheet />
        <StatusNotes />
        <TemplatesHost />
        <SettingsHost />
        <ImportHost />
        <EditorKeys />
      </div>
    </ReactFlowProvider>
  )
}
