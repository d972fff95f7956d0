/** The keyboard-shortcut sheet (`?` or the toolbar button). */
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { useUi, uiStore } from '../../store/uiStore.ts'
import { Dialog } from '../kit/Dialog.tsx'
import { SHORTCUTS } from './shortcuts.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

function capLabel(key: string, t: (k: string) => string): string {
  if (key === 'Mod') return isMac ? '⌘' : 'Ctrl'
  if (key === 'Drag' || key === 'Click' || key === 'Double-click') return t(`shortcuts:mouse.${key}`)
  return key
}

export function ShortcutSheet() {
  const { t } = useTranslation()
  const open = useUi((s) => s.shortcutsOpen)
  return (
    <Dialog
      open={open}
      title={t('shortcuts:title')}
      closeLabel={t('common.close')}
      onClose={() => uiStore.getState().setShortcutsOpen(false)}
      size="lg"
      testId="shortcut-sheet"
    >
      <div className="wf-shortcuts">
        {SHORTCUTS.map((group) => (
          <section key={group.titleKey}>
            <h3>{t(group.titleKey)}</h3>
            <dl>
              {group.items.map((item) => (
                <Fragment key={item.labelKey}>
                  <dt>{t(item.labelKey)}</dt>
                  <dd>
                    {item.keys.map((combo, i) => (
                      <span key={i} className="wf-shortcuts__combo">
                        {i > 0 ? <span className="wf-shortcuts__or">{t('shortcuts:or')}</span> : null}
                        {combo.map((key) => (
                          <kbd key={key}>{capLabel(key, t)}</kbd>
                        ))}
                      </span>
                    ))}
                  </dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  )
}
