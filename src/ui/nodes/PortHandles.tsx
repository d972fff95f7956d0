/**
 * The React Flow handles of one side of a node: one per declared port, with its id (what edges
 * name as `sourceHandle` / `targetHandle`) and its label. A side with one unlabelled port draws
 * the plain centred handle every node had before ports were declared.
 */
import { Handle, Position } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import type { PortSpec } from '../../engine/index.ts'

export function PortHandles({ ports, side }: { ports: readonly PortSpec[]; side: 'input' | 'output' }) {
  const { t } = useTranslation()
  const type = side === 'input' ? 'target' : 'source'
  const position = side === 'input' ? Position.Left : Position.Right
  const only = ports[0]
  if (ports.length === 1 && only && only.label === undefined && only.labelKey === undefined)
    return <Handle type={type} position={position} id={only.id} className="wf-handle" />
  return (
    <>
      {ports.map((port, index) => {
        const label = port.label ?? (port.labelKey ? t(port.labelKey) : port.id)
        const top = `${((index + 1) * 100) / (ports.length + 1)}%`
        return (
          <Handle
            key={port.id}
            type={type}
            position={position}
            id={port.id}
            className="wf-handle wf-handle--port"
            style={{ top }}
            data-testid={`port-${side}-${port.id}`}
            title={label}
          >
            <span className={`wf-port-label wf-port-label--${side}`}>{label}</span>
          </Handle>
        )
      })}
    </>
  )
}
