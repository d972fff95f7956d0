/**
 * Template text: a textarea for quick edits; long text (or a click on "Editor") opens Monaco.
 * The switch is remembered per field while the node stays selected.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { INSPECTOR_EDITOR_MIN_LINES } from '../../../defaults.ts'
import { LazyCodeEditor } from '../LazyCodeEditor.tsx'
import { RefTextarea } from './RefTextarea.tsx'
import { useUpstreamRefs } from './useUpstreamRefs.ts'
import type { FieldProps } from './types.ts'

function lineCount(text: string): number {
  let n = 1
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1
  return n
}

export function TextAreaField({
  nodeId,
  inputId,
  describedBy,
  value,
  field,
  onChange,
  label,
  issue,
}: FieldProps) {
  const { t } = useTranslation()
  const text = typeof value === 'string' ? value : ''
  const [editor, setEditor] = useState(() => lineCount(text) > INSPECTOR_EDITOR_MIN_LINES)
  const refs = useUpstreamRefs(nodeId)
  const rows = Math.min(Math.max(lineCount(text), 3), INSPECTOR_EDITOR_MIN_LINES)
  return (
    <div className="wf-textarea-field">
      {editor ? (
        <LazyCodeEditor
          id={inputId}
          value={text}
          onChange={onChange}
          language={field.language ?? 'plaintext'}
          ariaLabel={label}
          describedBy={describedBy}
          minLines={INSPECTOR_EDITOR_MIN_LINES}
          refs={refs}
        />
      ) : (
        <RefTextarea
          groups={refs}
          id={inputId}
          value={text}
          rows={rows}
          describedBy={describedBy}
          invalid={issue !== undefined}
          onChange={onChange}
        />
      )}
      <button
        type="button"
        className="wf-link-btn"
        aria-pressed={editor}
        onClick={() => setEditor((v) => !v)}
      >
        {editor ? t('inspector:plainText') : t('inspector:openEditor')}
      </button>
    </div>
  )
}

export function CodeField({ inputId, describedBy, value, field, onChange, label }: FieldProps) {
  return (
    <LazyCodeEditor
      id={inputId}
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
      language={field.language ?? 'javascript'}
      ariaLabel={label}
      describedBy={describedBy}
      minLines={INSPECTOR_EDITOR_MIN_LINES}
    />
  )
}
