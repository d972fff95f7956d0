/**
 * A provider's name as the UI shows it. The built-in Demo provider is stored with its English
 * name (settings are data, shared with the CLI); until a person renames it, it is shown in the
 * UI's language.
 */
import type { TFunction } from 'i18next'
import { DEMO_PROVIDER } from '../../settings/schema.ts'

export function providerLabel(provider: { id: string; kind: string; label: string }, t: TFunction): string {
  if (
    provider.kind === DEMO_PROVIDER.kind &&
    (provider.label === '' || provider.label === DEMO_PROVIDER.label)
  )
    return t('ui:providerNames.demo', { defaultValue: DEMO_PROVIDER.label })
  return provider.label || provider.id
}
