/**
 * The settings screen: a modal dialog with tabs (providers, MCP servers, keys, runtime protection, budget, general,
 * backup, danger zone). Arrow keys move between tabs (WAI-ARIA tabs pattern).
 */
import { useId, useRef, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '../kit/Dialog.tsx'
import type { SettingsPanelApi } from './api.ts'
import { BackupTab } from './BackupTab.tsx'
import { BudgetTab } from './BudgetTab.tsx'
import { DangerZone } from './DangerZone.tsx'
import { GeneralTab } from './GeneralTab.tsx'
import { KeysTab } from './KeysTab.tsx'
import { McpServersTab } from './McpServersTab.tsx'
import { ProtectionTab } from './ProtectionTab.tsx'
import { ProvidersTab } from './ProvidersTab.tsx'
import { SETTINGS_TABS, useSettingsUi, type SettingsTab } from '../../store/settingsUiStore.ts'

function TabPanel({ tab, api }: { tab: SettingsTab; api: SettingsPanelApi }) {
  switch (tab) {
    case 'providers':
      return <ProvidersTab api={api} />
    case 'mcp':
      return <McpServersTab api={api} />
    case 'keys':
      return <KeysTab api={api} />
    case 'protection':
      return <ProtectionTab api={api} />
    case 'budget':
      return <BudgetTab api={api} />
    case 'general':
      return <GeneralTab api={api} />
    case 'backup':
      return <BackupTab api={api} />
    case 'danger':
      return <DangerZone api={api} />
  }
}

export function SettingsDialog({ api }: { api: SettingsPanelApi }) {
  const { t } = useTranslation('settings')
  const open = useSettingsUi((s) => s.open)
  const tab = useSettingsUi((s) => s.tab)
  const setTab = useSettingsUi((s) => s.setTab)
  const close = useSettingsUi((s) => s.closeSettings)
  const baseId = useId()
  const tabRefs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({})

  function onTabKey(event: KeyboardEvent): void {
    const index = SETTINGS_TABS.indexOf(tab)
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0
    let next: SettingsTab | undefined
    if (step !== 0) next = SETTINGS_TABS[(index + step + SETTINGS_TABS.length) % SETTINGS_TABS.length]
    else if (event.key === 'Home') next = SETTINGS_TABS[0]
    else if (event.key === 'End') next = SETTINGS_TABS[SETTINGS_TABS.length - 1]
    if (next === undefined) return
    event.preventDefault()
    setTab(next)
    tabRefs.current[next]?.focus()
  }

  return (
    <Dialog
      open={open}
      size="lg"
      title={t('title')}
      closeLabel={t('common.close')}
      onClose={close}
      testId="settings-dialog"
    >
      <div className="wf-settings">
        <div
          className="wf-settings__tabs"
          role="tablist"
          aria-label={t('title')}
          aria-orientation="vertical"
          onKeyDown={onTabKey}
        >
          {SETTINGS_TABS.map((id) => (
            <button
              key={id}
              ref={(el) => {
                tabRefs.current[id] = el
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${id}`}
              aria-controls={`${baseId}-panel-${id}`}
              aria-selected={tab === id}
              tabIndex={tab === id ? 0 : -1}
              data-testid={`settings-tab-${id}`}
              className={`wf-settings__tab${id === 'danger' ? ' wf-settings__tab--danger' : ''}`}
              onClick={() => setTab(id)}
            >
              {t(`tabs.${id}`)}
            </button>
          ))}
        </div>
        <div
          className="wf-settings__panel"
          role="tabpanel"
          id={`${baseId}-panel-${tab}`}
          aria-labelledby={`${baseId}-tab-${tab}`}
          data-testid={`settings-panel-${tab}`}
        >
          <h3 className="wf-settings__panel-title">{t(`tabs.${tab}`)}</h3>
          <TabPanel key={tab} tab={tab} api={api} />
        </div>
      </div>
    </Dialog>
  )
}
