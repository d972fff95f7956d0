/**
 * The one error banner (role=alert): storage, import and run failures in words a person can act
 * on. The banner's own `messageKey` wins, then the catalogue entry `errors:<code>`; the error's
 * plain-English message is the fallback, so a code without an entry still says something useful.
 * The English error catalogue is not part of the page's start: it loads with the first banner,
 * which waits for it (a few milliseconds) rather than changing its words once shown.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ERRORS_NAMESPACE, loadNamespaces } from '../../i18n/index.ts'
import { useNotices } from '../../store/noticeStore.ts'
import { IconButton } from './Button.tsx'
import { Icon } from './icons.tsx'
import { issueText } from './issueText.ts'

export function ErrorBanner() {
  const { t, i18n } = useTranslation()
  const banner = useNotices((s) => s.banner)
  const dismiss = useNotices((s) => s.dismissError)
  const [catalogue, setCatalogue] = useState<'loading' | 'ready'>(() =>
    i18n.hasResourceBundle('en', ERRORS_NAMESPACE) ? 'ready' : 'loading',
  )
  const shown = banner !== null
  useEffect(() => {
    if (!shown || catalogue === 'ready') return
    let live = true
    // Offline, the banner still shows: with the error's own message.
    const done = () => live && setCatalogue('ready')
    loadNamespaces([ERRORS_NAMESPACE]).then(done, done)
    return () => {
      live = false
    }
  }, [shown, catalogue])
  if (banner === null || catalogue === 'loading') return null
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
