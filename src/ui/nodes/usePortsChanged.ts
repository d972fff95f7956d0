/**
 * Tells React Flow that a node's handles changed (a condition case added, renamed, removed):
 * it measures handles only when a node is first drawn or resized, so a handle added later could
 * not start a connection until the node was drawn again. Not on mount (5,000 bodies at once).
 */
import { useEffect, useRef } from 'react'
import { useUpdateNodeInternals } from '@xyflow/react'
import type { NodePorts } from '../../engine/index.ts'

export function usePortsChanged(id: string, ports: NodePorts): void {
  const update = useUpdateNodeInternals()
  const key = `${ports.inputs.map((p) => p.id).join('\n')}|${ports.outputs.map((p) => p.id).join('\n')}`
  const last = useRef(key)
  useEffect(() => {
    if (last.current === key) return
    last.current = key
    update(id)
  }, [id, key, update])
}
