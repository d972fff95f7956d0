/**
 * `{{` completion in Monaco: the per-line lists (lineCompletion) and the provider that hands them
 * to Monaco only for editors that attached references (refCompletion.ts), driven through the
 * same calls Monaco makes, with a stand-in for the parts of its namespace the file uses.
 */
import { describe, expect, it } from 'vitest'
import type { editor, languages, Position } from 'monaco-editor'
import { lineCompletion, type UpstreamGroup } from '../../../src/ui/inspector/fields/upstreamFields.ts'
import { attachRefCompletion, type RefMonaco } from '../../../src/ui/inspector/refCompletion.ts'

const groups: UpstreamGroup[] = [
  {
    nodeId: 'm',
    label: 'Classify',
    refs: ['{{m.response}}', '{{m.data}}', '{{m.data.intent}}', '{{m.data.urgency}}'],
  },
  { nodeId: 'in', label: 'Input', refs: ['{{in.question}}'] },
]

describe('lineCompletion', () => {
  it('offers every reference right after `{{`, then narrows by what was typed', () => {
    expect(lineCompletion(groups, 'Hi {{', 5, 8)).toEqual({
      start: 3,
      end: 5,
      typed: '{{',
      refs: ['{{m.response}}', '{{m.data}}', '{{m.data.intent}}', '{{m.data.urgency}}', '{{in.question}}'],
    })
    expect(lineCompletion(groups, 'Hi {{m.data.u', 13, 8)?.refs).toEqual(['{{m.data.urgency}}'])
    // Contains after prefix: "intent" is found inside the path.
    expect(lineCompletion(groups, '{{intent', 8, 8)?.refs).toEqual(['{{m.data.intent}}'])
    expect(lineCompletion(groups, '{{', 2, 2)?.refs).toHaveLength(2)
  })

  it('replaces a `}}` after the caret, and offers nothing outside a reference', () => {
    expect(lineCompletion(groups, 'x {{m.da}} y', 8, 8)).toMatchObject({ start: 2, end: 10, typed: '{{m.da' })
    expect(lineCompletion(groups, 'no braces here', 5, 8)).toBeUndefined()
    expect(lineCompletion(groups, '{{m.data}} done', 15, 8)).toBeUndefined()
    expect(lineCompletion(groups, '{{nothing.like.this', 19, 8)).toBeUndefined()
  })
})

describe('attachRefCompletion', () => {
  const providers = new Map<string, languages.CompletionItemProvider>()
  const monaco: RefMonaco = {
    languages: {
      registerCompletionItemProvider(language, provider) {
        providers.set(language, provider)
        return { dispose: () => providers.delete(language) }
      },
      CompletionItemKind: { Field: 3 as languages.CompletionItemKind },
    },
  }
  const model = (uri: string, text: string) =>
    ({ uri: { toString: () => uri }, getLineContent: () => text }) as unknown as editor.ITextModel
  const editorOf = (m: editor.ITextModel) =>
    ({ getModel: () => m }) as unknown as editor.IStandaloneCodeEditor
  const ask = async (m: editor.ITextModel, column: number) => {
    const provider = providers.get('plaintext')
    const position = { lineNumber: 1, column } as Position
    const list = await provider?.provideCompletionItems(
      m,
      position,
      {} as languages.CompletionContext,
      {
        isCancellationRequested: false,
      } as never,
    )
    return list?.suggestions ?? []
  }

  it('answers for an attached model with ranged, ordered items, and stops when detached', async () => {
    const prompt = model('inmemory://prompt', 'Urgency {{m.data.u}}')
    const detach = attachRefCompletion(monaco, editorOf(prompt), 'plaintext', () => groups)
    expect(providers.get('plaintext')?.triggerCharacters).toContain('{')
    const items = await ask(prompt, 19)
    expect(items.map((i) => i.insertText)).toEqual(['{{m.data.urgency}}'])
    expect(items[0]?.range).toEqual({ startLineNumber: 1, endLineNumber: 1, startColumn: 9, endColumn: 21 })
    expect(items[0]?.filterText).toBe('{{m.data.u{{m.data.urgency}}')
    detach()
    expect(await ask(prompt, 19)).toEqual([])
  })

  it('registers one provider per language and leaves editors without references alone', async () => {
    const a = model('inmemory://a', '{{')
    const b = model('inmemory://b', '{{')
    const calls: string[] = []
    const counting: RefMonaco = {
      languages: {
        ...monaco.languages,
        registerCompletionItemProvider(language, provider) {
          calls.push(language)
          return monaco.languages.registerCompletionItemProvider(language, provider)
        },
      },
    }
    const detachA = attachRefCompletion(counting, editorOf(a), 'plaintext', () => groups)
    expect(calls).toEqual([])
    expect((await ask(a, 3)).map((i) => i.sortText)).toEqual(['0000', '0001', '0002', '0003', '0004'])
    expect(await ask(b, 3)).toEqual([])
    detachA()
  })
})
