/**
 * The template gallery: example flows that run offline with the demo provider. "Open" creates
 * a new flow from the template and opens it (app/templates/templatesService.ts does the work).
 */
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import {
  galleryStore,
  useGallery,
  type GalleryError,
  type TemplateSummary,
} from '../../store/galleryStore.ts'

function useText() {
  const { t } = useTranslation('templates')
  const name = (entry: TemplateSummary): string =>
    entry.nameKey === '' ? entry.name : t(entry.nameKey, { defaultValue: entry.name })
  const description = (entry: TemplateSummary): string =>
    entry.descriptionKey === ''
      ? entry.description
      : t(entry.descriptionKey, { defaultValue: entry.description })
  const tag = (id: string): string => t(`tags.${id}`, { defaultValue: id })
  const error = (e: GalleryError): string => t(`errors.${e.key}`, { ...e.values })
  return { t, name, description, tag, error }
}

function TemplateCard({ entry, opening }: { entry: TemplateSummary; opening: string | null }) {
  const { t, name, description, tag } = useText()
  const { templates } = useServices()
  const busy = opening === entry.id
  const title = name(entry)
  return (
    <li
      className={`wf-template${entry.featured ? ' wf-template--featured' : ''}`}
      data-testid="template-item"
      data-template-id={entry.id}
    >
      <div className="wf-template__head">
        <h3>{title}</h3>
        {entry.featured ? <span className="wf-template__badge">{t('gallery.featured')}</span> : null}
      </div>
      <p className="wf-template__desc">{description(entry)}</p>
      <ul className="wf-template__tags" aria-label={t('gallery.tagsLabel')}>
        {entry.tags.map((id) => (
          <li key={id}>{tag(id)}</li>
        ))}
      </ul>
      <Button
        variant={entry.featured ? 'primary' : 'default'}
        size="sm"
        icon="template"
        aria-label={t('gallery.openNamed', { name: title })}
        data-autofocus={entry.featured ? true : undefined}
        disabled={opening !== null || !templates?.openTemplate}
        aria-busy={busy}
        onClick={() => void templates?.openTemplate?.(entry.id)}
      >
        {busy ? t('gallery.opening') : t('gallery.open')}
      </Button>
    </li>
  )
}

export function TemplateGallery() {
  const { t, error } = useText()
  const { templates } = useServices()
  const open = useGallery((s) => s.open)
  const status = useGallery((s) => s.status)
  const list = useGallery((s) => s.templates)
  const failure = useGallery((s) => s.error)
  const opening = useGallery((s) => s.opening)

  return (
    <Dialog
      open={open}
      title={t('gallery.title')}
      closeLabel={t('gallery.close')}
      onClose={() => galleryStore.getState().hide()}
      size="lg"
      testId="template-gallery"
    >
      <p className="wf-gallery__intro">{t('gallery.intro')}</p>
      {failure ? (
        <div className="wf-gallery__error" role="alert">
          <span>{error(failure)}</span>
          {status === 'error' ? (
            <Button size="sm" onClick={() => templates?.openGallery()}>
              {t('gallery.retry')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {status === 'loading' || status === 'idle' ? (
        <p className="wf-gallery__status" role="status">
          {t('gallery.loading')}
        </p>
      ) : null}
      {status === 'ready' && list.length === 0 ? (
        <p className="wf-gallery__status">{t('gallery.empty')}</p>
      ) : null}
      {status === 'ready' && list.length > 0 ? (
        <ul className="wf-gallery" aria-busy={opening !== null}>
          {list.map((entry) => (
            <TemplateCard key={entry.id} entry={entry} opening={opening} />
          ))}
        </ul>
      ) : null}
    </Dialog>
  )
}
