/** Creating a base: its id (what a knowledge node names), a name, and whether it gets vectors. */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

export interface NewBaseFormProps {
  existing: readonly string[]
  onCreate(draft: { id: string; name: string; vectors: boolean }): Promise<void>
}

export function NewBaseForm({ existing, onCreate }: NewBaseFormProps) {
  const { t } = useTranslation('knowledge')
  const ids = useId()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [vectors, setVectors] = useState(true)
  const [busy, setBusy] = useState(false)
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
        if (trimmed === '' || problem !== null) return
        setBusy(true)
        void onCreate({ id: trimmed, name, vectors }).finally(() => {
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
      <label className="wf-knowledge__check">
        <input type="checkbox" checked={vectors} onChange={(e) => setVectors(e.target.checked)} />
        {t('newBase.vectors')}
      </label>
      <Button
        type="submit"
        variant="primary"
        data-testid="knowledge-create-base"
        disabled={busy || trimmed === '' || problem !== null}
      >
        {t('newBase.create')}
      </Button>
    </form>
  )
}
