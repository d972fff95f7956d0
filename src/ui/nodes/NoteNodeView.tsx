/**
 * Sticky note: Markdown rendered through DOMPurify, resizable, no handles, never executed.
 * Double-click edits the text in place; one editing session is one undo step.
 */
import { memo, useEffect, useState } from 'react'
import { NodeResizer, type NodeProps } from '@xyflow/react'
import { NOTE_MIN_SIZE_PX } from '../../defaults.ts'
import { flowStore, useReadOnly } from '../../store/flowStore.ts'
import type { WardRfNode } from '../../store/rfAdapter.ts'
import { useNodeText } from './nodeText.ts'

type Renderer = (text: string) => string
let renderer: Renderer | null = null
let loading: Promise<Renderer> | null = null

function loadRenderer(): Promise<Renderer> {
  loading ??= import('./markdown.ts').then((m) => {
    renderer = m.renderMarkdown
    return m.renderMarkdown
  })
  return loading
}

function useMarkdown(text: string): string | null {
  const [, setReady] = useState(renderer !== null)
  useEffect(() => {
    if (renderer === null) void loadRenderer().then(() => setReady(true))
  }, [])
  return renderer === null ? null : renderer(text)
}

export const NoteNodeView = memo(function NoteNodeView({ id, data, selected }: NodeProps<WardRfNode>) {
  const { node } = data
  const text = useNodeText()
  const source = typeof node.data.config['text'] === 'string' ? node.data.config['text'] : ''
  const html = useMarkdown(source)
  const [editing, setEditing] = useState(false)
  const readOnly = useReadOnly()

  return (
    <div
      className="wf-note-node"
      data-testid="flow-node"
      data-node-id={id}
      data-node-type={node.type}
      data-status="idle"
      data-selected={selected || undefined}
    >
      <NodeResizer
        isVisible={selected && !readOnly}
        minWidth={NOTE_MIN_SIZE_PX}
        minHeight={NOTE_MIN_SIZE_PX}
        lineClassName="wf-note-node__resize"
      />
      {editing && !readOnly ? (
        <textarea
          className="wf-note-node__editor nodrag nowheel"
          aria-label={node.data.label}
          defaultValue={source}
          autoFocus
          onChange={(e) => flowStore.getState().actions.setConfigField(id, 'text', e.target.value)}
          onBlur={() => setEditing(false)}
          onKeyDown={(e) => {
            e.stopPropagation()
            if (e.key === 'Escape') setEditing(false)
          }}
        />
      ) : (
        <div
          className="wf-note-node__body nowheel"
          title={readOnly ? undefined : text.noteEditHint}
          onDoubleClick={readOnly ? undefined : () => setEditing(true)}
        >
          {source.trim() === '' ? (
            <span className="wf-note-node__empty">{text.noteEmpty}</span>
          ) : html === null ? (
            <div className="wf-note-node__plain">{source}</div>
          ) : (
            <div className="wf-note-node__md" dangerouslySetInnerHTML={{ __html: html }} />
          )}
        </div>
      )}
    </div>
  )
})
