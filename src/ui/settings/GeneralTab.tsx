/** Language and theme (applied at once), autosave delay and run history size (on Save). */
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { AUTOSAVE_DELAY_RANGE_MS, RUN_HISTORY_RANGE } from '../../defaults.ts'
import { LANGUAGES } from '../../i18n/index.ts'
import { languageSchema, themeSchema, type AppSettings } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { RangeField } from './RangeField.tsx'
import { checkRange } from './ranges.ts'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'

const THEMES = themeSchema.options
/** Each language is named in itself, whatever the UI language. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = { en: 'English', 'zh-CN': '简体中文' }

export function GeneralTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const settings = useSettings((s) => s)
  const languageId = useId()
  const themeId = useId()
  const [autosave, setAutosave] = useState(String(settings.autosaveDelayMs))
  const [history, setHistory] = useState(String(settings.runHistoryPerFlow))
  const [tried, setTried] = useState(false)
  const [status, setStatus] = useState<FormOutcome | null>(null)

  async function apply(next: AppSettings): Promise<void> {
    try {
      await api.save(next)
      setStatus({ ok: true, text: t('common.saved') })
    } catch (error) {
      setStatus({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  function saveNumbers(event: FormEvent): void {
    event.preventDefault()
    setTried(true)
    const a = checkRange(autosave, AUTOSAVE_DELAY_RANGE_MS)
    const h = checkRange(history, RUN_HISTORY_RANGE)
    if (!a.ok || !h.ok) {
      setStatus({ ok: false, text: t('protection.refused', { count: (a.ok ? 0 : 1) + (h.ok ? 0 : 1) }) })
      return
    }
    void apply({ ...settings, autosaveDelayMs: a.value, runHistoryPerFlow: h.value })
  }

  return (
    <form className="wf-settings-form" onSubmit={saveNumbers} noValidate data-testid="general-form">
      <div className="wf-field">
        <label htmlFor={languageId}>{t('general.language')}</label>
        <select
          id={languageId}
          className="wf-select"
          data-testid="settings-language"
          value={settings.language}
          onChange={(e) => {
            const language = languageSchema.safeParse(e.target.value)
            if (language.success) void apply({ ...settings, language: language.data })
          }}
        >
          {LANGUAGES.map((lang) => (
            <option key={lang} value={lang}>
              {LANGUAGE_NAMES[lang] ?? lang}
            </option>
          ))}
        </select>
      </div>
      <div className="wf-field">
        <label htmlFor={themeId}>{t('general.theme')}</label>
        <select
          id={themeId}
          className="wf-select"
          data-testid="settings-theme"
          value={settings.theme}
          onChange={(e) => {
            const theme = themeSchema.safeParse(e.target.value)
            if (theme.success) void apply({ ...settings, theme: theme.data })
          }}
        >
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {t(`general.themes.${theme}`)}
            </option>
          ))}
        </select>
      </div>
      <RangeField
        label={t('general.autosave')}
        unit="ms"
        range={AUTOSAVE_DELAY_RANGE_MS}
        text={autosave}
        showProblem={tried}
        testId="settings-autosave"
        onText={setAutosave}
      />
      <RangeField
        label={t('general.runHistory')}
        hint={t('general.runHistoryHint')}
        range={RUN_HISTORY_RANGE}
        text={history}
        showProblem={tried}
        testId="settings-run-history"
        onText={setHistory}
      />
      <div className="wf-settings-actions">
        <FormStatus status={status} />
        <Button type="submit" variant="primary" data-testid="general-save">
          {t('common.save')}
        </Button>
      </div>
    </form>
  )
}
