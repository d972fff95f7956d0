/**
 * The one error banner (role=alert): storage, import and run failures in words a person can act
 * on. The banner's own `messageKey` wins, then the catalogue entry `errors:<code>`; the error's
 * plain-English message is the fallback, so a code without an entry still says something useful.
 * The English error and issue catalogues are not part of the page's start: they load with the
 * first banner, which waits for them (a few milliseconds) rather than changing its words once shown.
 */
import { useTranslation } from 'react-i18next'
import { ERRORS_NAMESPACE, ISSUES_NAMESPACE } from '../../i18n/index.ts'
import { useNotices } from '../../store/noticeStore.ts'
import { useCatalogues } from '../useCatalogues.ts'
import { IconButton } from './Button.tsx'
import { Icon } from './icons.tsx'
import { issueText } from './issueText.ts'

/** The error's words, and its problems' (a refused file, a refused run). */
const BANNER_NAMESPACES = [ERRORS_NAMESPACE, ISSUES_NAMESPACE]

export function ErrorBanner() {
  const { t, i18n } = useTranslation()
  const banner = useNotices((s) => s.banner)
  const dismiss = useNotices((s) => s.dismissError)
  // Offline, the banner still shows: with the error's own message.
  const ready = useCatalogues(BANNER_NAMESPACES, banner !== null)
  if (banner === null || !ready) return null
  const key = banner.messageKey ?? `errors:${banner.code}`
  const text = i18n.exists(key) ? t(key, { ...banner.details, defaultValue: banner.message }) : banner.message
  return (
    <div className="wf-banner" role="alert" data-testid="error-banner" data-code={banner.code}>
      <span className="wf-banner__icon">
        <Icon name="error" />
      </span>
      <div className="wf-banner__text">
        <strong>{t('banner.title')}</strong>
        {text}
        {banner.problems && banner.problems.length > 0 ? (
          <ul className="wf-banner__problems" data-testid="error-banner-problems">
            {banner.problems.map((p, i) => (
              <li key={i}>
                {p.path === '' ? '' : `${p.path}: `}
                {issueText(t, p.key, p.params, p.message)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <IconButton icon="close" label={t('banner.dismiss')} onClick={dismiss} size="sm" />
    </div>
  )
}
