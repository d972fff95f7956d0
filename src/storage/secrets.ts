/**
 * Which parts of the settings are secrets, and how they are split from / merged into settings.
 * Secrets (provider API keys and the values of secret-named headers) live in their own table so
 * that settings rows, exports and logs never see them.
 */
import { z } from '../zodMini.ts'
import type { AppSettings, McpServerSettings, ProviderSettings } from '../settings/schema.ts'
import { isSecretHeaderName } from '../settings/secretHeaders.ts'

export const providerSecretSchema = z.object({
  providerId: z.string(),
  apiKey: z.string(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
})
/** The secrets of one provider: its key and the values of its secret-named headers. */
export type ProviderSecret = z.infer<typeof providerSecretSchema>

/**
 * All provider secrets. An array rather than a record keyed by provider id: ids like
 * `__proto__` are valid provider slugs and must not touch an object's prototype.
 */
export const secretsSchema = z.array(providerSecretSchema)
export type Secrets = ProviderSecret[]

// Re-exported: storage's callers find every secret rule here.
export { isSecretHeaderName }

const SECRET_FIELD_EXACT = /^(authorization|bearer|x-api-key|apikey|credentials?|cookie)$/i
/** `apiKey`, `openai_api_key`, `githubToken`, `clientSecret`, `dbPassword`, ... (but not `maxTokens`). */
const SECRET_FIELD_SUFFIX =
  /(?:^|[-_a-z0-9])(?:api[-_]?key|access[-_]?key|secret[-_]?key|private[-_]?key|token|secret|password|passwd|passphrase)$/i

/** True for object keys that hold a credential (`apiKey`, `token`, `password`, ...). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD_EXACT.test(name) || SECRET_FIELD_SUFFIX.test(name)
}

/** Query parameter names whose values are credentials (`?key=`, `?x-api-key=`, `?access_token=`, ...). */
const SECRET_QUERY =
  /(?:^|[-_.])(?:api)?key(?:$|[-_.])|apikey|^(?:sig|signature|pass|pwd|jwt)$|signature|token|secret|passw|authoriz|auth(?!or)|credential|session/i

export function isSecretQueryName(name: string): boolean {
  return SECRET_QUERY.test(name)
}

/**
 * MCP servers keep their header values in the same table, under this prefix and the server's
 * id: a provider id cannot hold ':' (providerSettingsSchema), so the two never meet.
 */
export const MCP_SECRET_PREFIX = 'mcp:'

/** The secrets row id of an MCP server. */
export function mcpSecretId(serverId: string): string {
  return `${MCP_SECRET_PREFIX}${serverId}`
}

/** Removes every secret from `settings` and returns them separately. Pure. */
export function splitSecrets(settings: AppSettings): { settings: AppSettings; secrets: Secrets } {
  const secrets: Secrets = []
  const providers = settings.providers.map((provider): ProviderSettings => {
    const secretHeaders = provider.headers.filter((h) => isSecretHeaderName(h.key) && h.value !== '')
    if (provider.apiKey !== '' || secretHeaders.length > 0) {
      secrets.push({
        providerId: provider.id,
        apiKey: provider.apiKey,
        headers: secretHeaders.map((h) => ({ ...h })),
      })
    }
    return {
      ...provider,
      apiKey: '',
      headers: provider.headers.map((h) =>
        isSecretHeaderName(h.key) ? { key: h.key, value: '' } : { ...h },
      ),
    }
  })
  // Every MCP header value is a secret, whatever its name (the server decides what it means).
  const mcpServers = (settings.mcpServers ?? []).map((server): McpServerSettings => {
    const filled = server.headers.filter((h) => h.value !== '')
    if (filled.length > 0) {
      secrets.push({ providerId: mcpSecretId(server.id), apiKey: '', headers: filled.map((h) => ({ ...h })) })
    }
    return { ...server, headers: server.headers.map((h) => ({ key: h.key, value: '' })) }
  })
  return { settings: { ...settings, providers, mcpServers }, secrets }
}

/** Fills a header list's empty values from `stored`, name by name (case-insensitive). */
function fillHeaders(
  headers: readonly { key: string; value: string }[],
  stored: readonly { key: string; value: string }[],
  secretOnly: boolean,
): { key: string; value: string }[] {
  const pending = [...stored]
  return headers.map((h) => {
    if ((secretOnly && !isSecretHeaderName(h.key)) || h.value !== '') return h
    const index = pending.findIndex((s) => s.key.toLowerCase() === h.key.toLowerCase())
    if (index < 0) return h
    const [match] = pending.splice(index, 1)
    return { key: h.key, value: match?.value ?? '' }
  })
}

/**
 * Fills keys and secret header values from `secrets` into settings. A value already present in
 * `settings` wins over an empty one in `secrets`, so merging twice changes nothing.
 */
export function mergeSecrets(settings: AppSettings, secrets: Secrets): AppSettings {
  const providers = settings.providers.map((provider): ProviderSettings => {
    const secret = secrets.find((s) => s.providerId === provider.id)
    if (secret === undefined) return provider
    const headers = fillHeaders(provider.headers, secret.headers, true)
    return { ...provider, apiKey: provider.apiKey !== '' ? provider.apiKey : secret.apiKey, headers }
  })
  const mcpServers = (settings.mcpServers ?? []).map((server): McpServerSettings => {
    const secret = secrets.find((s) => s.providerId === mcpSecretId(server.id))
    return secret === undefined
      ? server
      : { ...server, headers: fillHeaders(server.headers, secret.headers, false) }
  })
  return { ...settings, providers, mcpServers }
}

/** Every non-empty secret value, longest first, for scrubbing text that must not hold them. */
export function secretValues(secrets: Secrets): string[] {
  const values = new Set<string>()
  for (const s of secrets) {
    if (s.apiKey !== '') values.add(s.apiKey)
    for (const h of s.headers) if (h.value !== '') values.add(h.value)
  }
  return [...values].sort((a, b) => b.length - a.length)
}

/** True when `secrets` holds no value at all. */
export function isEmptySecrets(secrets: Secrets): boolean {
  return secretValues(secrets).length === 0
}
