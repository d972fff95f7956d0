/** Light / dark switch (settings keep 'system' too; the toggle picks an explicit theme). */
import { useTranslation } from 'react-i18next'
import { settingsStore } from '../../store/settingsStore.ts'
import { IconButton } from '../kit/Button.tsx'
import { useResolvedTheme } from '../theme/useTheme.ts'

export function ThemeToggle() {
  const { t } = useTranslation()
  const theme = useResolvedTheme()
  const next = theme === 'dark' ? 'light' : 'dark'
  return (
    <IconButton
      icon={theme === 'dark' ? 'sun' : 'moon'}
      label={t(next === 'dark' ? 'toolbar.darkTheme' : 'toolbar.lightTheme')}
      data-testid="toggle-theme"
      onClick={() => settingsStore.getState().update({ theme: next })}
    />
  )
}
