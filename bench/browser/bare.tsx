/**
 * The bench's floor: the same workflow file drawn by React Flow alone, with its default node type
 * (a label in a box), the same edges, viewport and the React Flow options of the app that change
 * how much is drawn (only visible elements past 200 nodes, smoothstep edges, dotted background,
 * controls). The canvas gets the app canvas's size from `?w=&h=`, so both draw the same nodes.
 * A loop is a parent node (its `size`, a default node's label) with its body nodes as React
 * Flow children, placed relative to it and moved with it, as the app nests them. Not React Flow's
 * `group` type: that draws an empty box, which the bench's probe would never see as drawn.
 * Opening goes through a file input like the app's import, so both start from the same action.
 */
import { StrictMode, useCallback, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  BackgroundVariant,
  Controls,
  ReactFlow,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type Viewport,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'

interface FileNode {
  id: string
  position: { x: number; y: number }
  parentId?: string
  size?: { width: number; height: number }
  data: { label: string }
}
interface FileEdge {
  id: string
  source: string
  target: string
}
interface WorkflowFile {
  metadata: { id: string }
  viewport: Viewport
  nodes: FileNode[]
  edges: FileEdge[]
}

const params = new URLSearchParams(location.search)
const width = Number(params.get('w') ?? 1000)
const height = Number(params.get('h') ?? 700)
const EDGE_OPTIONS = { type: 'smoothstep' }
const PRO = { hideAttribution: true }

/** A file node as React Flow's default node; a body node as a child of its loop. */
function toNode(n: FileNode): Node {
  const node: Node = { id: n.id, position: n.position, data: { label: n.data.label } }
  if (n.parentId !== undefined) node.parentId = n.parentId
  if (n.size) {
    node.width = n.size.width
    node.height = n.size.height
  }
  return node
}

function Bare() {
  const [flow, setFlow] = useState<{ id: string; viewport: Viewport } | null>(null)
  const [nodes, setNodes] = useState<Node[]>([])
  const [edges, setEdges] = useState<Edge[]>([])

  useEffect(() => {
    const input = document.getElementById('open') as HTMLInputElement
    const onChange = (): void => {
      const file = input.files?.[0]
      if (!file) return
      void file.text().then((text) => {
        const doc = JSON.parse(text) as WorkflowFile
        setNodes(doc.nodes.map(toNode))
        setEdges(doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })))
        setFlow({ id: doc.metadata.id, viewport: doc.viewport })
      })
    }
    input.addEventListener('change', onChange)
    return () => input.removeEventListener('change', onChange)
  }, [])

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => setNodes((n) => applyNodeChanges(changes, n)),
    [],
  )
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => setEdges((e) => applyEdgeChanges(changes, e)),
    [],
  )

  return (
    <div className="bare-canvas" style={{ width, height }}>
      <ReactFlow
        key={flow?.id ?? 'none'}
        nodes={nodes}
        edges={edges}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        defaultViewport={flow?.viewport ?? { x: 0, y: 0, zoom: 1 }}
        minZoom={0.1}
        onlyRenderVisibleElements={nodes.length > 200}
        defaultEdgeOptions={EDGE_OPTIONS}
        proOptions={PRO}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  )
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <Bare />
    </StrictMode>,
  )
