/**
 * Property: whatever a settings file says (random ids, base URLs, header names), importing it
 * never leaves a stored key or secret header value on a provider whose origin (scheme, host,
 * port) differs from the one it was stored for; and every such drop is reported.
 */
import fc from 'fast-check'
import { beforeEach, expect, it } from 'vitest'
import { loadSettings } from '../../src/storage/index.ts'
import { isSecretHeaderName } from '../../src/storage/secrets.ts'
import { providerOrigin } from '../../src/settings/origin.ts'
import type { AppSettings, ProviderSettings } from '../../src/settings/schema.ts'
import { settingsStore } from '../../src/store/settingsStore.ts'
import { freshDb } from '../storage/support.ts'
import { downloads, resetStores, settingsServiceFor } from './settingsSupport.ts'

const IDS = ['openai', 'work', '__proto__', 'constructor', 'toString', 'p-1', 'P_2']
const HOSTS = [
  'api.example.test',
  'API.Example.Test',
  'collect.attacker.test',
  'localhost',
  '127.0.0.1',
  'xn--bcher-kva.test',
  'api.example.test.',
]
const SECRET_HEADERS = ['Authorization', 'x-api-key', 'X-Auth-Token', 'Cookie', 'api-key', 'X-Client-Secret']
const PLAIN_HEADERS = ['X-Team', 'Accept-Language', 'X-Region']

const url = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'HTTPS', 'ftp'),
    host: fc.constantFrom(...HOSTS),
    port: fc.option(fc.constantFrom(80, 443, 8080, 11434), { nil: undefined }),
    path: fc.constantFrom('', '/', '/v1', '/v1/', '/openai/v1'),
  })
  .map(({ scheme, host, port, path }) => `${scheme}://${host}${port === undefined ? '' : `:${port}`}${path}`)

const headerName = fc.constantFrom(...SECRET_HEADERS, ...PLAIN_HEADERS)
const secret = fc.stringMatching(/^[A-Za-z0-9]{16,24}$/).map((s) => `sk-${s}`)

const storedProvider = fc.record({
  id: fc.constantFrom(...IDS),
  kind: fc.constantFrom('openai' as const, 'anthropic' as const),
  baseUrl: url,
  apiKey: fc.oneof(secret, fc.constant('')),
  headers: fc.array(fc.record({ key: headerName, value: secret }), { maxLength: 3 }),
})

/** How the file changes one exported provider: its URL, kind, header names, or nothing. */
const edit = fc.record({
  baseUrl: fc.option(url, { nil: undefined }),
  kind: fc.option(fc.constantFrom('openai' as const, 'anthropic' as const), { nil: undefined }),
  extraHeader: fc.option(headerName, { nil: undefined }),
})

function provider(p: {
  id: string
  kind: 'openai' | 'anthropic'
  baseUrl: string
  apiKey: string
  headers: Array<{ key: string; value: string }>
}): ProviderSettings {
  return { ...p, label: p.id, model: 'm', models: [], stream: true }
}

beforeEach(resetStores)

it('no stored key or secret header survives an origin change, whatever the file says', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(storedProvider, { selector: (p) => p.id, minLength: 1, maxLength: 4 }),
      fc.array(edit, { minLength: 4, maxLength: 4 }),
      fc.array(fc.record({ id: fc.constantFrom(...IDS), baseUrl: url }), { maxLength: 2 }),
      async (stored, edits, added) => {
        resetStores()
        const db = await freshDb()
        const files = downloads()
        const service = settingsServiceFor(db, { files })
        await service.load()
        const start = settingsStore.getState().settings
        await service.save({ ...start, providers: [...start.providers, ...stored.map(provider)] })
        await service.panel.exportSanitized()
        const file = JSON.parse(files.files[0]!.text) as { settings: AppSettings }
        file.settings.providers.forEach((p, i) => {
          const e = edits[i % edits.length]!
          if (p.kind === 'demo') return
          if (e.baseUrl !== undefined) p.baseUrl = e.baseUrl
          if (e.kind !== undefined) p.kind = e.kind
          if (e.extraHeader !== undefined) p.headers.push({ key: e.extraHeader, value: '' })
        })
        for (const a of added) {
          if (file.settings.providers.some((p) => p.id === a.id)) continue
          file.settings.providers.push(
            provider({ id: a.id, kind: 'openai', baseUrl: a.baseUrl, apiKey: '', headers: [] }),
          )
        }
        const outcome = await service.panel.importSettingsFile(
          new File([JSON.stringify(file)], 'shared.json', { type: 'application/json' }),
        )
        expect(outcome.status).toBe('imported')
        const loaded = (await loadSettings(db)).settings.providers
        for (const before of stored) {
          // The stored secrets: the key and the values of secret-named headers.
          const values = [
            before.apiKey,
            ...before.headers.filter((h) => isSecretHeaderName(h.key)).map((h) => h.value),
          ].filter((v) => v !== '')
          for (const holder of loaded) {
            const text = JSON.stringify(holder)
            for (const v of values) {
              if (!text.includes(v)) continue
              // A stored secret may stay only on its own provider, at its own, known origin.
              expect(holder.id).toBe(before.id)
              expect(providerOrigin(holder)).toBeDefined()
              expect(providerOrigin(holder)).toBe(providerOrigin(before))
            }
          }
          const after = loaded.find((p) => p.id === before.id)
          const moved =
            after !== undefined &&
            (providerOrigin(after) === undefined || providerOrigin(after) !== providerOrigin(before))
          const hadSecret = values.length > 0
          if (moved && hadSecret && outcome.status === 'imported') {
            expect(outcome.droppedKeys.map((d) => d.providerId)).toContain(before.id)
          }
        }
        db.close()
      },
    ),
    { numRuns: 40 },
  )
}, 120_000)
