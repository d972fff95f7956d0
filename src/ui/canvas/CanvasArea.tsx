/** The canvas with its welcome overlay (empty flow) and the problems list below it. */
import { useServices } from '../services.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import { ProblemsPanel } from '../problems/ProblemsPanel.tsx'
import { RunPanel } from '../run/RunPanel.tsx'
import { Welcome } from '../welcome/Welcome.tsx'
import { Canvas } from './Canvas.tsx'

export function CanvasArea() {
  const { templates } = useServices()
  const empty = useFlowStore((s) => s.flowId !== null && s.nodes.length === 0)
  return (
    <main className="wf-center">
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
