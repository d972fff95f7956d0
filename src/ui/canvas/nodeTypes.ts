/** React Flow node types. Defined once at module level: a new object per render remounts every node. */
import type { NodeTypes } from '@xyflow/react'
import { FlowNodeView } from '../nodes/FlowNodeView.tsx'
import { NoteNodeView } from '../nodes/NoteNodeView.tsx'

export const nodeTypes: NodeTypes = {
  wardflow: FlowNodeView,
  note: NoteNodeView,
}
