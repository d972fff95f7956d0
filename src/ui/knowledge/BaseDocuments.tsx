/**
 * One base: drop files on it (or choose them), see each document with its size and chunk count,
 * delete a document or the whole base (which asks once more). Outcomes of the last drop are
 * listed by file name; a refused file says why.
 */
import { useEffect, useRef, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import {
  useServices,
  type KnowledgeBaseView,
  type KnowledgeDocumentView,
  type KnowledgeFileOutcome,
} from '../services.ts'
import { sizeText } from './format.ts'

export interface BaseDocumentsProps {
  base: KnowledgeBaseView
  revision: number
  outcomes: readonly KnowledgeFileOutcome[]
  onFiles(files: File[]): Promise<void>
  onRemoveDocument(id: string): Promise<void>
  onRemoveBase(): Promise<void>
  onError(cause: unknown): void
}

export function BaseDocuments({
  base,
  revision,
  outcomes,
  onFiles,
  onRemoveDocument,
  onRemoveBase,
  onError,
}: BaseDocumentsProps) {
  const { t, i18n } = useTranslation('knowledge')
  const { knowledge } = useServices()
  const [documents, setDocuments] = useState<KnowledgeDocumentView[]>([])
  const [busy, setBusy] = useState(false)
  const [over, setOver] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let live = true
    setConfirming(false)
    knowledge
      ?.listDocuments(base.id)
      .then((list) => live && setDocuments(list))
      .catch(onError)
    return () => {
      live = false
    }
  }, [knowledge, base.id, revision, onError])

  const take = (files: File[]): void => {
    if (files.length === 0) return
    setBusy(true)
    void onFiles(files).finally(() => setBusy(false))
  }
  const onDrop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault()
    setOver(false)
    take([...event.dataTransfer.files])
  }

  return (
    <div className="wf-knowledge__base-detail" data-testid="knowledge-base-detail" data-base-id={base.id}>
      <h3>{base.name}</h3>
      <p className="wf-knowledge__hint">{t('useInNode', { id: base.id })}</p>
      <p className="wf-knowledge__hint">{base.vectors ? t('searchBoth') : t('searchKeyword')}</p>
      {base.embedding.kind === 'provider' ? (
        <p className="wf-knowledge__hint" data-testid="knowledge-embedded-with">
          {t('embeddedWith', { model: base.embedding.model, provider: base.embedding.providerId })}
        </p>
      ) : null}
      <div
        className="wf-knowledge__drop"
        data-testid="knowledge-drop"
        data-over={over || undefined}
        aria-busy={busy || undefined}
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>{busy ? t('indexing') : t('dropHere')}</p>
        <Button size="sm" disabled={busy} onClick={() => input.current?.click()}>
          {t('chooseFiles')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="knowledge-file-input"
          accept=".txt,.md,.markdown,.html,.htm,.pdf,.csv,.json,text/plain,text/markdown,text/html,application/pdf"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])]
            e.target.value = ''
            take(files)
          }}
        />
      </div>
      {outcomes.length === 0 ? null : (
        <ul className="wf-knowledge__outcomes" role="status" data-testid="knowledge-outcomes">
          {outcomes.map((o, i) => (
            <li key={`${o.name}-${i}`} data-ok={o.ok}>
              {o.ok
                ? t('added', { name: o.name, chunks: o.chunkCount })
                : t('refused.line', { name: o.name, reason: t(o.reasonKey, { detail: o.detail ?? '' }) })}
            </li>
          ))}
        </ul>
      )}
      {documents.length === 0 ? (
        <p className="wf-knowledge__hint">{t('noDocuments')}</p>
      ) : (
        <table className="wf-knowledge__documents">
          <thead>
            <tr>
              <th>{t('document')}</th>
              <th>{t('size')}</th>
              <th>{t('chunks')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {documents.map((d) => (
              <tr
                key={d.id}
                data-testid="knowledge-document-item"
                data-name={d.name}
                data-chunks={d.chunkCount}
              >
                <td>{d.name}</td>
                <td>{sizeText(d.sizeBytes, i18n.language)}</td>
                <td>{d.chunkCount}</td>
                <td>
                  <Button
                    size="sm"
                    variant="ghost"
                    data-testid="knowledge-delete-document"
                    aria-label={t('deleteDocument', { name: d.name })}
                    onClick={() => void onRemoveDocument(d.id)}
                  >
                    {t('delete')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="wf-knowledge__danger">
        {confirming ? (
          <>
            <span>{t('deleteBaseConfirm', { name: base.name })}</span>
            <Button
              size="sm"
              variant="danger"
              data-testid="knowledge-delete-base-confirm"
              onClick={() => void onRemoveBase()}
            >
              {t('deleteBase')}
            </Button>
            <Button size="sm" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            data-testid="knowledge-delete-base"
            onClick={() => setConfirming(true)}
          >
            {t('deleteBase')}
          </Button>
        )}
      </div>
    </div>
  )
}
