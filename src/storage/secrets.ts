/**
 * Which parts of the settings are secrets, and how they are split from / merged into settings.
 * Secrets (provider API keys and the values of secret-named headers) live in their own table so
 * that settings rows, exports and logs never see them.
 */
import { z } from '../zodMini.ts'
import type { AppSettings, ProviderSettings } from '../settings/schema.ts'
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
  return { settings: { ...settings, providers }, secrets }
}

/**
 * Fills keys and secret header values from `secrets` into settings. A value already present in
 * `settings` wins over an empty one in `secrets`, so merging twice changes nothing.
 */
export function mergeSecrets(settings: AppSettings, secrets: Secrets): AppSettings {
  const providers = settings.providers.map((provider): ProviderSettings => {
    const secret = secrets.find((s) => s.providerId === provider.id)
    if (secret === undefined) return provider
    const pending = [...secret.headers]
    const headers = provider.headers.map((h) => {
      if (!isSecretHeaderName(h.key) || h.value !== '') return h
      const index = pending.findIndex((s) => s.key.toLowerCase() === h.key.toLowerCase())
      if (index < 0) return h
      const [match] = pending.splice(index, 1)
      return { key: h.key, value: match?.value ?? '' }
    })
    return { ...provider, apiKey: provider.apiKey !== '' ? provider.apiKey : secret.apiKey, headers }
  })
  return { ...settings, providers }
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
