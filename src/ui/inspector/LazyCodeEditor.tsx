/**
 * Monaco, loaded only when a code field is shown (React.lazy keeps its ~1 MB out of the first
 * paint). While it loads, a plain textarea edits the same value, so nothing waits on it.
 */
import { lazy, Suspense } from 'react'
import type { CodeEditorProps } from './codeEditorProps.ts'

const CodeEditor = lazy(() => import('./CodeEditor.tsx'))

export function LazyCodeEditor(props: CodeEditorProps) {
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
