/**
 * The Monaco editor (lazy chunk). Follows the app theme; its own undo stays inside it. The editor
 * owns its text while a person types: the field's value is written into it only when it changed
 * elsewhere (editorEchoes.ts), never when a late render hands back an older text of its own.
 */
import Editor, { type OnMount } from '@monaco-editor/react'
import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import '../../monacoSetup.ts'
import { useResolvedTheme } from '../theme/useTheme.ts'
import type { CodeEditorProps } from './codeEditorProps.ts'
import { EditorEchoes } from './editorEchoes.ts'
import { attachRefCompletion } from './refCompletion.ts'
import { armTabExitOnEscape } from './tabExit.ts'

const LINE_HEIGHT_PX = 18
const PADDING_PX = 8

type MonacoEditor = Parameters<OnMount>[0]

/** Replaces the editor's text as one edit (undoable inside the editor), without reporting it. */
function replaceText(editor: MonacoEditor, text: string, applying: { current: boolean }): void {
  const model = editor.getModel()
  if (model === null || model.getValue() === text) return
  applying.current = true
  try {
    editor.executeEdits('', [{ range: model.getFullModelRange(), text, forceMoveMarkers: true }])
    editor.pushUndoStop()
  } finally {
    applying.current = false
  }
}

export default function CodeEditor({
  value,
  onChange,
  language,
  ariaLabel,
  minLines = 8,
  id,
  readOnly = false,
  refs,
}: CodeEditorProps) {
  const { t } = useTranslation()
  const theme = useResolvedTheme()
  const editorRef = useRef<MonacoEditor | null>(null)
  const echoes = useRef(new EditorEchoes())
  const applying = useRef(false)
  const latest = useRef({ value, onChange, refs })
  latest.current = { value, onChange, refs }
  const detachRefs = useRef<(() => void) | null>(null)
  useEffect(() => () => detachRefs.current?.(), [])

  useEffect(() => {
    const editor = editorRef.current
    if (editor !== null && echoes.current.isExternal(value)) replaceText(editor, value, applying)
  }, [value])

  const onMount: OnMount = (editor, monaco) => {
    editorRef.current = editor
    const { KeyCode } = monaco
    armTabExitOnEscape(editor, {
      Escape: KeyCode.Escape,
      Tab: KeyCode.Tab,
      modifiers: [KeyCode.Shift, KeyCode.Ctrl, KeyCode.Alt, KeyCode.Meta],
    })
    if (latest.current.refs !== undefined) {
      detachRefs.current = attachRefCompletion(monaco, editor, language, () => latest.current.refs ?? [])
    }
    // The field may have changed while Monaco loaded.
    replaceText(editor, latest.current.value, applying)
    editor.onDidChangeModelContent(() => {
      if (applying.current) return
      const text = editor.getValue()
      echoes.current.sent(text)
      latest.current.onChange(text)
    })
  }

  const options = useMemo(
    () => ({
      ariaLabel,
      readOnly,
      minimap: { enabled: false },
      fontSize: 12,
      lineHeight: LINE_HEIGHT_PX,
      lineNumbers: 'on' as const,
      lineNumbersMinChars: 3,
      folding: false,
      scrollBeyondLastLine: false,
      wordWrap: 'on' as const,
      automaticLayout: true,
      tabSize: 2,
      padding: { top: PADDING_PX, bottom: PADDING_PX },
      renderLineHighlight: 'none' as const,
      overviewRulerLanes: 0,
      scrollbar: { alwaysConsumeMouseWheel: false },
    }),
    [ariaLabel, readOnly],
  )

  return (
    <div className="wf-code" id={id} data-language={language} data-readonly={readOnly || undefined}>
      <Editor
        defaultValue={value}
        language={language}
        theme={theme === 'dark' ? 'vs-dark' : 'vs'}
        height={minLines * LINE_HEIGHT_PX + PADDING_PX * 2}
        onMount={onMount}
        options={options}
      />
      {/* The way out by keyboard (tabExit.ts), shown over the editor's corner while it has the
          focus (panels.css): it takes no room, so nothing moves when the focus comes or goes. */}
      <p className="wf-code__hint" data-testid="editor-tab-hint">
        {t('inspector.editorTabHint')}
      </p>
    </div>
  )
}
