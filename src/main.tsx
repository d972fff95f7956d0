/**
 * Entry point: language and theme for the first paint, the app composition, then React.
 * Storage opens in the background; the shell paints at once.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './ui/theme/theme.css'
import './ui/kit/kit.css'
import './ui/theme/layout.css'
import './ui/theme/canvas.css'
import './ui/theme/panels.css'
import './ui/theme/focus.css'
import { App } from './App.tsx'
import { createApp } from './app/core/createApp.ts'
import { areas } from './app/areas.ts'
import { ServicesProvider } from './ui/ServicesProvider.tsx'
import { openSettingsChannel } from './app/core/settingsChannel.ts'
import { initI18n, initialLanguage } from './i18n/index.ts'
import { registerServiceWorker } from './offline/registerServiceWorker.ts'
import { settingsStore } from './store/settingsStore.ts'
import { rememberedTheme, resolveTheme } from './ui/theme/useTheme.ts'

const language = initialLanguage()
const theme = rememberedTheme()
settingsStore.getState().update(theme === null ? { language } : { language, theme })
document.documentElement.dataset['theme'] = resolveTheme(
  theme ?? 'light',
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches,
)

// Other tabs hear of settings saved here and read them again (never write a stale copy back).
const app = createApp({ installers: areas, settingsChannel: openSettingsChannel() })

void initI18n(language).then(() => {
  const root = document.getElementById('root')
  if (!root) return
  createRoot(root).render(
    <StrictMode>
      <ServicesProvider store={app.servicesStore}>
        <App />
      </ServicesProvider>
    </StrictMode>,
  )
  void app.start()
})

// Offline copy of the whole site, fetched after load and idle (production builds only).
registerServiceWorker({ production: import.meta.env.PROD, base: import.meta.env.BASE_URL })
