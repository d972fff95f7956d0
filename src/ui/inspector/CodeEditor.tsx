/** The Monaco editor (lazy chunk). Follows the app theme; its own undo stays inside it. */
import Editor from '@monaco-editor/react'
import '../../monacoSetup.ts'
import { useResolvedTheme } from '../theme/useTheme.ts'
import type { CodeEditorProps } from './codeEditorProps.ts'

const LINE_HEIGHT_PX = 18
const PADDING_PX = 8

export default function CodeEditor({
  value,
  onChange,
  language,
  ariaLabel,
  minLines = 8,
  id,
}: CodeEditorProps) {
  const theme = useResolvedTheme()
  return (
    <div className="wf-code" id={id} data-language={language}>
      <Editor
        value={value}
        language={language}
        theme={theme === 'dark' ? 'vs-dark' : 'vs'}
        height={minLines * LINE_HEIGHT_PX + PADDING_PX * 2}
        onChange={(next) => onChange(next ?? '')}
        options={{
          ariaLabel,
          minimap: { enabled: false },
          fontSize: 12,
          lineHeight: LINE_HEIGHT_PX,
          lineNumbers: 'on',
          lineNumbersMinChars: 3,
          folding: false,
          scrollBeyondLastLine: false,
          wordWrap: 'on',
          automaticLayout: true,
          tabSize: 2,
          padding: { top: PADDING_PX, bottom: PADDING_PX },
          renderLineHighlight: 'none',
          overviewRulerLanes: 0,
          scrollbar: { alwaysConsumeMouseWheel: false },
        }}
      />
    </div>
  )
}
