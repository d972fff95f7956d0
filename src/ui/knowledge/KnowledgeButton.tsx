/** The toolbar's way into the Knowledge screen (its code and words load on first use). */
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { Button } from '../kit/Button.tsx'
import { usePrefetchArea } from '../usePrefetchArea.ts'

export function KnowledgeButton() {
  const { t } = useTranslation()
  const { knowledge } = useServices()
  const area = usePrefetchArea('knowledge')
  if (!knowledge) return null
  return (
    <Button variant="ghost" data-testid="open-knowledge" {...area} onClick={() => knowledge.open()}>
      {t('toolbar.knowledge')}
    </Button>
  )
}
