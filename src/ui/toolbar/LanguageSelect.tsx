/** en / zh-CN. Remembered in localStorage (first paint) and in settings. */
import { useTranslation } from 'react-i18next'
import { changeLanguage, LANGUAGES } from '../../i18n/index.ts'
import { languageSchema } from '../../settings/schema.ts'
import { settingsStore } from '../../store/settingsStore.ts'

const NAMES: Record<string, string> = { en: 'English', 'zh-CN': '简体中文' }

export function LanguageSelect() {
  const { t, i18n } = useTranslation()
  return (
    <select
      className="wf-select wf-language"
      data-testid="language-select"
      aria-label={t('toolbar.language')}
      value={i18n.language}
      onChange={(e) => {
        const parsed = languageSchema.safeParse(e.target.value)
        if (!parsed.success) return
        void changeLanguage(parsed.data)
        settingsStore.getState().update({ language: parsed.data })
      }}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang} lang={lang}>
          {NAMES[lang] ?? lang}
        </option>
      ))}
    </select>
  )
}
