/** The toolbar's way into the gallery (the empty canvas offers it too). */
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { Button } from '../kit/Button.tsx'
import { usePrefetchArea } from '../usePrefetchArea.ts'

export function TemplatesButton() {
  // The toolbar's own catalogue: the gallery's (templates) loads with the gallery.
  const { t } = useTranslation()
  const { templates } = useServices()
  const area = usePrefetchArea('templates')
  if (!templates) return null
  return (
    <Button
      variant="ghost"
      icon="template"
      data-testid="open-templates"
      {...area}
      onClick={() => templates.openGallery()}
    >
      {t('toolbar.templates')}
    </Button>
  )
}
