/**
 * Mount once inside the app's ServicesContext: the settings dialog and the passphrase prompt
 * that app/ opens (also for runs that need a locked key). Renders nothing without the service.
 */
import { useServices } from '../services.ts'
import { PassphraseDialog } from './PassphraseDialog.tsx'
import { SettingsDialog } from './SettingsDialog.tsx'
import './settings.css'

export function SettingsHost() {
  const api = useServices().settingsPanel
  return (
    <>
      {api === undefined ? null : <SettingsDialog api={api} />}
      <PassphraseDialog />
    </>
  )
}
