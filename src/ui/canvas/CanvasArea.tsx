/** The canvas with its welcome overlay (empty flow) and the problems list below it. */
import type { CSSProperties } from 'react'
import { useServices } from '../services.ts'
import { CANVAS_MIN_HEIGHT_PX } from '../../defaults.ts'
import { useUi } from '../../store/uiStore.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import { ProblemsPanel } from '../problems/ProblemsPanel.tsx'
import { RunPanel } from '../run/RunPanel.tsx'
import { Welcome } from '../welcome/Welcome.tsx'
import { Canvas } from './Canvas.tsx'

export function CanvasArea() {
  const { templates } = useServices()
  const empty = useFlowStore((s) => s.flowId !== null && s.nodes.length === 0)
  const runPanelHeight = useUi((s) => s.layout.runPanelHeightPx)
  const sizes = {
    '--canvas-min-h': `${CANVAS_MIN_HEIGHT_PX}px`,
    '--run-panel-h': `${runPanelHeight}px`,
  } as CSSProperties
  return (
    <main className="wf-center" style={sizes}>
      <div className="wf-canvas-wrap">
        <Canvas
          overlay={
            empty ? (
              <Welcome
                onOpenTemplates={templates?.openGallery}
                onOpenLoopBreaker={templates?.openLoopBreaker}
              />
            ) : null
          }
        />
      </div>
      <ProblemsPanel />
      <RunPanel />
    </main>
  )
}
