// @vitest-environment jsdom
/**
 * The Knowledge screen's new-base form offers vector search by the embeddings of a provider
 * from Settings (OpenAI-compatible ones, Ollama among them; never Anthropic), asks for its
 * embeddings model, and hands the choice over as the base's embedding.
 */
import { describe, expect, it } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { initI18n, loadNamespaces } from '../../../src/i18n/index.ts'
import { settingsStore } from '../../../src/store/settingsStore.ts'
import { defaultSettings } from '../../../src/settings/schema.ts'
import { NewBaseForm } from '../../../src/ui/knowledge/NewBaseForm.tsx'
import type { KnowledgeEmbeddingChoice } from '../../../src/ui/services.ts'
import { renderEditor } from '../harness.tsx'

function withProviders(): void {
  const settings = defaultSettings()
  const base = { model: 'm', apiKey: '', stream: true, headers: [] }
  settings.providers.push(
    {
      ...base,
      id: 'ollama',
      label: 'Ollama',
      kind: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      models: ['nomic-embed-text', 'llama3'],
    },
    { ...base, id: 'claude', label: 'Claude', kind: 'anthropic', baseUrl: '', models: [] },
  )
  settingsStore.getState().setSettings(settings)
}

describe('new knowledge base form', () => {
  it('creates a base embedded by a provider’s model, and offers only providers with embeddings', async () => {
    withProviders()
    const made: Array<{ id: string; name: string; embedding: KnowledgeEmbeddingChoice }> = []
    await initI18n('en')
    await loadNamespaces(['knowledge'])
    await renderEditor(<NewBaseForm existing={[]} onCreate={async (draft) => void made.push(draft)} />)
    const vectors = screen.getByLabelText('Vector search') as HTMLSelectElement
    const offered = Array.from(vectors.options).map((o) => o.textContent)
    expect(offered).toEqual(['None (keywords only)', 'Local vectors (offline demo)', 'Embeddings of Ollama'])
    fireEvent.change(screen.getByLabelText('Base id'), { target: { value: 'kb_docs' } })
    fireEvent.change(vectors, { target: { value: 'provider:ollama' } })
    const create = screen.getByTestId('knowledge-create-base') as HTMLButtonElement
    // A provider's vectors need its model first.
    expect(create.disabled).toBe(true)
    const model = screen.getByLabelText('Embeddings model') as HTMLInputElement
    const suggested = Array.from(
      document.getElementById(model.getAttribute('list') ?? '')?.querySelectorAll('option') ?? [],
    )
    expect(suggested.map((o) => o.getAttribute('value'))).toEqual(['nomic-embed-text', 'llama3'])
    fireEvent.change(model, { target: { value: ' nomic-embed-text ' } })
    expect(create.disabled).toBe(false)
    fireEvent.click(create)
    await screen.findByDisplayValue('')
    expect(made).toEqual([
      {
        id: 'kb_docs',
        name: '',
        embedding: { kind: 'provider', providerId: 'ollama', model: 'nomic-embed-text' },
      },
    ])
  })

  it('keeps keyword-only and the offline demo’s vectors as choices', async () => {
    withProviders()
    const made: KnowledgeEmbeddingChoice[] = []
    await initI18n('en')
    await loadNamespaces(['knowledge'])
    await renderEditor(
      <NewBaseForm existing={[]} onCreate={async (draft) => void made.push(draft.embedding)} />,
    )
    fireEvent.change(screen.getByLabelText('Base id'), { target: { value: 'kb_a' } })
    fireEvent.click(screen.getByTestId('knowledge-create-base'))
    await expect.poll(() => (screen.getByLabelText('Base id') as HTMLInputElement).value).toBe('')
    fireEvent.change(screen.getByLabelText('Base id'), { target: { value: 'kb_b' } })
    fireEvent.change(screen.getByLabelText('Vector search'), { target: { value: 'none' } })
    expect(screen.queryByLabelText('Embeddings model')).toBeNull()
    fireEvent.click(screen.getByTestId('knowledge-create-base'))
    await expect.poll(() => made.length).toBe(2)
    expect(made).toEqual([{ kind: 'demo' }, { kind: 'none' }])
  })
})
