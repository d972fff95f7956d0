/**
 * MCP server header values are secrets kept like API keys: never in the settings row, a
 * sanitized export or a run's scrub list misses them; a full export restores them.
 */
import { describe, expect, it } from 'vitest'
import { defaultSettings, type AppSettings } from '../../src/settings/schema.ts'
import { movedProviders } from '../../src/settings/origin.ts'
import { loadSettings, saveSettings } from '../../src/storage/repositories/settings.ts'
import { mergeSecrets, secretValues, splitSecrets } from '../../src/storage/secrets.ts'
import {
  exportSettingsFull,
  exportSettingsSanitized,
  importSettingsText,
} from '../../src/storage/settingsFile.ts'
import { freshDb } from './support.ts'

// Deliberately under a header name that does not look secret: every MCP header value is one.
const TEAM = 'team-7f3a9c2e1b'
const BEARER = 'Bearer mcp-tok-91ab22cd'

function withServer(): AppSettings {
  const settings = defaultSettings()
  settings.mcpServers.push({
    id: 'tools',
    name: 'Team tools',
    url: 'https://mcp.example.com/mcp',
    headers: [
      { key: 'Authorization', value: BEARER },
      { key: 'X-Team', value: TEAM },
    ],
  })
  return settings
}

describe('MCP server secrets', () => {
  it('split out every header value and merge back to the same settings', () => {
    const { settings, secrets } = splitSecrets(withServer())
    expect(JSON.stringify(settings)).not.toContain(TEAM)
    expect(JSON.stringify(settings)).not.toContain(BEARER)
    expect(settings.mcpServers[0]?.headers.map((h) => h.key)).toEqual(['Authorization', 'X-Team'])
    expect(secretValues(secrets)).toEqual([BEARER, TEAM])
    expect(mergeSecrets(settings, secrets)).toEqual(withServer())
  })

  it('stay out of the stored settings row and come back on load', async () => {
    const db = await freshDb()
    await saveSettings(db, withServer())
    const row = JSON.stringify(await db.settings.get('app'))
    expect(row).not.toContain(TEAM)
    expect(row).not.toContain(BEARER)
    expect(row).toContain('https://mcp.example.com/mcp')
    const loaded = await loadSettings(db)
    expect(loaded.settings.mcpServers).toEqual(withServer().mcpServers)
  })

  it('are dropped when the server is deleted', async () => {
    const db = await freshDb()
    await saveSettings(db, withServer())
    await saveSettings(db, { ...withServer(), mcpServers: [] })
    expect(JSON.stringify(await db.secrets.toArray())).not.toContain(TEAM)
  })

  it('never reach a sanitized export; a full export restores them', async () => {
    const { settings, secrets } = splitSecrets(withServer())
    const plain = exportSettingsSanitized(settings, secrets)
    expect(plain.text).not.toContain(TEAM)
    expect(plain.text).not.toContain(BEARER)
    const full = await exportSettingsFull(settings, secrets, 'a long passphrase')
    expect(full.text).not.toContain(TEAM)
    const imported = await importSettingsText(full.text, 'a long passphrase')
    expect(mergeSecrets(imported.settings, imported.secrets).mcpServers).toEqual(withServer().mcpServers)
  })

  it('count as moved when an import points the server at another origin', () => {
    const after = withServer()
    const server = after.mcpServers[0]
    if (server) server.url = 'https://evil.example.net/mcp'
    expect(movedProviders(withServer(), after).filter((m) => m.providerId.startsWith('mcp:'))).toEqual([
      {
        providerId: 'mcp:tools',
        label: 'Team tools',
        from: 'https://mcp.example.com',
        to: 'https://evil.example.net',
      },
    ])
  })
})
