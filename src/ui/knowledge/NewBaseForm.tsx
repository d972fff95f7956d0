/**
 * Creating a base: its id (what a knowledge node names), a name, and how its chunks get vectors:
 * none (keywords only), the demo's local vectors, or the embeddings model of a provider from
 * Settings that offers them (OpenAI-compatible servers, Ollama among them).
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { KnowledgeEmbeddingChoice } from '../services.ts'

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

export interface NewBaseFormProps {
  existing: readonly string[]
  onCreate(draft: { id: string; name: string; embedding: KnowledgeEmbeddingChoice }): Promise<void>
}

const PROVIDER_PREFIX = 'provider:'

export function NewBaseForm({ existing, onCreate }: NewBaseFormProps) {
  const { t } = useTranslation('knowledge')
  const ids = useId()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [vectors, setVectors] = useState('demo')
  const [model, setModel] = useState('')
  const [busy, setBusy] = useState(false)
  // OpenAI-compatible servers offer /embeddings (Ollama too); Anthropic offers none.
  const providers = useSettings((s) => s.providers).filter((p) => p.kind === 'openai')
  const providerId = vectors.startsWith(PROVIDER_PREFIX) ? vectors.slice(PROVIDER_PREFIX.length) : undefined
  const provider = providers.find((p) => p.id === providerId)
  const needsModel = providerId !== undefined && model.trim() === ''
  const embedding: KnowledgeEmbeddingChoice =
    providerId !== undefined
      ? { kind: 'provider', providerId, model: model.trim() }
      : vectors === 'none'
        ? { kind: 'none' }
        : { kind: 'demo' }
  const trimmed = id.trim()
  const problem =
    trimmed === ''
      ? null
      : !ID_PATTERN.test(trimmed)
        ? t('newBase.badId')
        : existing.includes(trimmed)
          ? t('newBase.taken')
          : null
  return (
    <form
      className="wf-knowledge__new"
      aria-label={t('newBase.title')}
      onSubmit={(event) => {
        event.preventDefault()
        if (trimmed === '' || problem !== null || needsModel) return
        setBusy(true)
        void onCreate({ id: trimmed, name, embedding }).finally(() => {
          setBusy(false)
          setId('')
          setName('')
        })
      }}
    >
      <h3>{t('newBase.title')}</h3>
      <label htmlFor={`${ids}-id`}>{t('newBase.id')}</label>
      <input
        id={`${ids}-id`}
        data-testid="knowledge-new-id"
        value={id}
        placeholder="kb_docs"
        aria-invalid={problem !== null}
        onChange={(e) => setId(e.target.value)}
      />
      {problem === null ? <small>{t('newBase.idHelp')}</small> : <small role="alert">{problem}</small>}
      <label htmlFor={`${ids}-name`}>{t('newBase.name')}</label>
      <input
        id={`${ids}-name`}
        data-testid="knowledge-new-name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <label htmlFor={`${ids}-vectors`}>{t('newBase.vectors')}</label>
      <select
        id={`${ids}-vectors`}
        data-testid="knowledge-new-vectors"
        value={vectors}
        onChange={(e) => setVectors(e.target.value)}
      >
        <option value="none">{t('newBase.vectorsNone')}</option>
        <option value="demo">{t('newBase.vectorsDemo')}</option>
        {providers.map((p) => (
          <option key={p.id} value={`${PROVIDER_PREFIX}${p.id}`}>
            {t('newBase.vectorsProvider', { provider: p.label || p.id })}
          </option>
        ))}
      </select>
      {provider === undefined ? null : (
        <>
          <label htmlFor={`${ids}-model`}>{t('newBase.model')}</label>
          <input
            id={`${ids}-model`}
            data-testid="knowledge-new-model"
            value={model}
            list={`${ids}-models`}
            placeholder="text-embedding-3-small"
            onChange={(e) => setModel(e.target.value)}
          />
          <datalist id={`${ids}-models`}>
            {provider.models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <small>{t('newBase.modelHelp')}</small>
        </>
      )}
      <Button
        type="submit"
        variant="primary"
        data-testid="knowledge-create-base"
        disabled={busy || trimmed === '' || problem !== null || needsModel}
      >
        {t('newBase.create')}
      </Button>
    </form>
  )
}
