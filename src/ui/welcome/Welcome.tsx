/**
 * Shown over an empty canvas: what to do first (drag a node in, or start from a template), and
 * a one-click way to see the loop breaker. The buttons appear once their service exists.
 */
import { useTranslation } from 'react-i18next'
import { Button } from '../kit/Button.tsx'
import { Icon } from '../kit/icons.tsx'
import { usePrefetchArea } from '../usePrefetchArea.ts'

export interface WelcomeProps {
  onOpenTemplates?: () => void
  onOpenLoopBreaker?: () => void
}

export function Welcome({ onOpenTemplates, onOpenLoopBreaker }: WelcomeProps) {
  const { t } = useTranslation()
  const templates = usePrefetchArea('templates')
  return (
    <div className="wf-welcome" data-testid="welcome">
      <div className="wf-welcome__card">
        <span className="wf-welcome__badge" aria-hidden="true">
          <Icon name="flow" size={26} />
        </span>
        <h2>{t('welcome.title')}</h2>
        <p>{t('welcome.body')}</p>
        <ol className="wf-welcome__steps">
          <li>{t('welcome.step1')}</li>
          <li>{t('welcome.step2')}</li>
          <li>{t('welcome.step3')}</li>
        </ol>
        {onOpenTemplates || onOpenLoopBreaker ? (
          <div className="wf-welcome__actions">
            {onOpenLoopBreaker ? (
              <Button
                variant="primary"
                icon="shield"
                onClick={onOpenLoopBreaker}
                data-testid="open-loop-breaker"
                {...templates}
              >
                {t('welcome.loopBreaker')}
              </Button>
            ) : null}
            {onOpenTemplates ? (
              <Button icon="template" onClick={onOpenTemplates} data-testid="browse-templates" {...templates}>
                {t('welcome.templates')}
              </Button>
            ) : null}
          </div>
        ) : null}
        <p className="wf-welcome__hint">{t('welcome.shortcutHint')}</p>
      </div>
    </div>
  )
}
