/**
 * `{{` completion inside Monaco, the editor variant of RefTextarea: typing `{{` in a template
 * field opened in the code editor lists the upstream fields (lineCompletion, the same lists).
 * Monaco keeps completion providers per language for every editor on the page, so one provider
 * per language is registered on the first editor that asks, and it answers only for the models
 * an editor attached here (each with its node's references); the code node's editor gets none.
 */
import type { editor as MonacoEditorNs, IDisposable, languages, Position } from 'monaco-editor'
import { INSPECTOR_REF_SUGGESTIONS } from '../../defaults.ts'
import { lineCompletion, type UpstreamGroup } from './fields/upstreamFields.ts'

/** The part of the Monaco namespace this needs, passed in by CodeEditor's onMount. */
export interface RefMonaco {
  languages: {
    registerCompletionItemProvider(language: string, provider: languages.CompletionItemProvider): IDisposable
    CompletionItemKind: { Field: languages.CompletionItemKind }
  }
}

type Groups = () => readonly UpstreamGroup[]

const sources = new Map<string, Groups>()
const registered = new Set<string>()

function provide(
  model: MonacoEditorNs.ITextModel,
  position: Position,
  monaco: RefMonaco,
): languages.CompletionList {
  const groups = sources.get(model.uri.toString())
  const line = model.getLineContent(position.lineNumber)
  const found = groups
    ? lineCompletion(groups(), line, position.column - 1, INSPECTOR_REF_SUGGESTIONS)
    : undefined
  if (!found) return { suggestions: [] }
  const range = {
    startLineNumber: position.lineNumber,
    endLineNumber: position.lineNumber,
    startColumn: found.start + 1,
    endColumn: found.end + 1,
  }
  return {
    // Asked again on every key: the order (prefix matches, then contains) is ours, not Monaco's
    // fuzzy score, so each item's filter text starts with exactly what was typed and they tie.
    incomplete: true,
    suggestions: found.refs.map((ref, i) => ({
      label: ref,
      kind: monaco.languages.CompletionItemKind.Field,
      insertText: ref,
      filterText: found.typed + ref,
      sortText: String(i).padStart(4, '0'),
      range,
    })),
  }
}

/**
 * Offers `groups()` (read at each request, so it follows the flow and the last run) in this
 * editor's model. Returns the detach to call when the editor goes away.
 */
export function attachRefCompletion(
  monaco: RefMonaco,
  editor: MonacoEditorNs.IStandaloneCodeEditor,
  language: string,
  groups: Groups,
): () => void {
  const model = editor.getModel()
  if (model === null) return () => undefined
  const key = model.uri.toString()
  sources.set(key, groups)
  if (!registered.has(language)) {
    registered.add(language)
    monaco.languages.registerCompletionItemProvider(language, {
      triggerCharacters: ['{', '.'],
      provideCompletionItems: (m, position) => provide(m, position, monaco),
    })
  }
  return () => {
    if (sources.get(key) === groups) sources.delete(key)
  }
}
