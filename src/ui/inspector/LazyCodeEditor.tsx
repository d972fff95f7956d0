/**
 * Monaco, loaded only when a code field is shown (React.lazy keeps its ~1 MB out of the first
 * paint). While it loads, a plain textarea edits the same value, so nothing waits on it.
 */
import { lazy, Suspense } from 'react'
import { useReadOnly } from '../../store/flowStore.ts'
import type { CodeEditorProps } from './codeEditorProps.ts'

const CodeEditor = lazy(() => import('./CodeEditor.tsx'))

export function LazyCodeEditor(given: CodeEditorProps) {
  // Code fields edit the open flow: a past run shown makes them read-only like the rest.
  const flowReadOnly = useReadOnly()
  const props = { ...given, readOnly: given.readOnly === true || flowReadOnly }
  const fallback = (
    <textarea
      id={props.id}
      className="wf-textarea wf-code-fallback"
      value={props.value}
      aria-label={props.ariaLabel}
      aria-describedby={props.describedBy}
      rows={props.minLines ?? 8}
      spellCheck={false}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange(e.target.value)}
    />
  )
  return (
    <Suspense fallback={fallback}>
      <CodeEditor {...props} />
    </Suspense>
  )
}
