/**
 * The Knowledge screen: the bases (with documents, chunks and size), a form for a new base, and
 * the selected base's documents, where files are dropped or chosen. Everything a file holds is
 * shown as text only. Failures (a full disk) are said in an alert, never swallowed.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '../kit/Dialog.tsx'
import { Button } from '../kit/Button.tsx'
import { useServices, type KnowledgeBaseView, type KnowledgeFileOutcome } from '../services.ts'
import { knowledgeUiStore, useKnowledgeOpen } from '../../store/knowledgeUiStore.ts'
import { errorText } from '../settings/errorText.ts'
import { NewBaseForm } from './NewBaseForm.tsx'
import { BaseDocuments } from './BaseDocuments.tsx'
import { sizeText } from './format.ts'

export function KnowledgeScreen() {
  const { t, i18n } = useTranslation('knowledge')
  const open = useKnowledgeOpen()
  const { knowledge } = useServices()
  const [bases, setBases] = useState<KnowledgeBaseView[]>([])
  const [selected, setSelected] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [outcomes, setOutcomes] = useState<KnowledgeFileOutcome[]>([])
  const [revision, setRevision] = useState(0)

  const fail = useCallback((cause: unknown) => setError(errorText(t, i18n, cause)), [t, i18n])
  const refresh = useCallback(() => setRevision((r) => r + 1), [])

  useEffect(() => {
    if (!open || !knowledge) return
    let live = true
    knowledge
      .listBases()
      .then((list) => {
        if (!live) return
        setBases(list)
        setSelected((current) =>
          current !== null && list.some((b) => b.id === current) ? current : (list[0]?.id ?? null),
        )
      })
      .catch(fail)
    return () => {
      live = false
    }
  }, [open, knowledge, revision, fail])

  const base = bases.find((b) => b.id === selected)
  return (
    <Dialog
      open={open}
      title={t('title')}
      onClose={() => knowledgeUiStore.getState().closeKnowledge()}
      closeLabel={t('close')}
      size="lg"
      testId="knowledge-screen"
    >
      <div className="wf-knowledge">
        <section className="wf-knowledge__bases" aria-label={t('bases')}>
          <p className="wf-knowledge__hint">{t('intro')}</p>
          {bases.length === 0 ? <p className="wf-knowledge__hint">{t('noBases')}</p> : null}
          <ul className="wf-knowledge__list">
            {bases.map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  className="wf-knowledge__base"
                  data-testid="knowledge-base-item"
                  data-base-id={b.id}
                  aria-pressed={b.id === selected}
                  onClick={() => setSelected(b.id)}
                >
                  <span className="wf-knowledge__name">{b.name}</span>
                  <code>{b.id}</code>
                  <span className="wf-knowledge__counts">
                    {t('counts', {
                      documents: b.documentCount,
                      chunks: b.chunkCount,
                      size: sizeText(b.sizeBytes, i18n.language),
                    })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <NewBaseForm
            existing={bases.map((b) => b.id)}
            onCreate={async (draft) => {
              if (!knowledge) return
              setError(null)
              try {
                await knowledge.createBase(draft)
                setSelected(draft.id)
                refresh()
              } catch (cause) {
                fail(cause)
              }
            }}
          />
        </section>
        <section className="wf-knowledge__detail" aria-label={t('documents')}>
          {error === null ? null : (
            <p role="alert" className="wf-knowledge__error" data-testid="knowledge-error">
              {error}
            </p>
          )}
          {base === undefined || !knowledge ? null : (
            <BaseDocuments
              base={base}
              revision={revision}
              outcomes={outcomes}
              onFiles={async (files) => {
                setError(null)
                setOutcomes([])
                try {
                  setOutcomes(await knowledge.addFiles(base.id, files))
                } catch (cause) {
                  fail(cause)
                }
                refresh()
              }}
              onRemoveDocument={async (id) => {
                try {
                  await knowledge.removeDocument(id)
                } catch (cause) {
                  fail(cause)
                }
                refresh()
              }}
              onRemoveBase={async () => {
                try {
                  await knowledge.removeBase(base.id)
                  setSelected(null)
                } catch (cause) {
                  fail(cause)
                }
                refresh()
              }}
              onError={fail}
            />
          )}
          <div className="wf-knowledge__footer">
            <Button onClick={() => knowledgeUiStore.getState().closeKnowledge()}>{t('close')}</Button>
          </div>
        </section>
      </div>
    </Dialog>
  )
}
