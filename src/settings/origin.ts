/**
 * Where a provider sends its key: the origin (scheme, host and port) of its base URL. A stored
 * key or secret header belongs to that origin; an imported settings file that points a
 * provider elsewhere must not take the key along (security.md, "Settings files"). Pure.
 */
import type { AppSettings, ProviderSettings } from './schema.ts'

/** Used when an Anthropic provider leaves the base URL empty. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'

/**
 * The origin a provider's requests go to (`https://api.openai.com`), or undefined when it sends
 * nothing anywhere (demo) or its URL is not an http(s) URL. URL parsing normalises case, default
 * ports and IDN hosts, so `HTTPS://API.example.com:443/x` and `https://api.example.com` agree.
 */
/** The origin of an http(s) URL, or undefined. */
export function urlOrigin(text: string): string | undefined {
  try {
    const url = new URL(text.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

export function providerOrigin(provider: Pick<ProviderSettings, 'kind' | 'baseUrl'>): string | undefined {
  if (provider.kind === 'demo') return undefined
  const text =
    provider.baseUrl.trim() === '' && provider.kind === 'anthropic'
      ? ANTHROPIC_DEFAULT_BASE_URL
      : provider.baseUrl.trim()
  try {
    const url = new URL(text)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    return url.origin
  } catch {
    return undefined
  }
}

/** True only when both providers send to one known origin; an unknown origin matches nothing. */
export function sameOrigin(
  a: Pick<ProviderSettings, 'kind' | 'baseUrl'>,
  b: Pick<ProviderSettings, 'kind' | 'baseUrl'>,
): boolean {
  const from = providerOrigin(a)
  return from !== undefined && from === providerOrigin(b)
}

/** A provider that keeps its id but sends to another origin than before. */
export interface MovedProvider {
  providerId: string
  /** The provider's name in the new settings (its id when it has none). */
  label: string
  /** Origins before and after; '' when a side has none (demo, or not an http(s) URL). */
  from: string
  to: string
}

/** Providers of `after` whose id is in `before` and whose origin changed. */
export function movedProviders(before: AppSettings, after: AppSettings): MovedProvider[] {
  const moved: MovedProvider[] = []
  for (const next of after.providers) {
    const old = before.providers.find((p) => p.id === next.id)
    if (old === undefined || sameOrigin(old, next)) continue
    moved.push({
      providerId: next.id,
      label: next.label || next.id,
      from: providerOrigin(old) ?? '',
      to: providerOrigin(next) ?? '',
    })
  }
  // MCP servers' header values are kept under `mcp:<id>` (storage/secrets.ts) and follow the same rule.
  for (const next of after.mcpServers ?? []) {
    const old = (before.mcpServers ?? []).find((m) => m.id === next.id)
    if (old === undefined) continue
    const from = urlOrigin(old.url)
    const to = urlOrigin(next.url)
    if (from !== undefined && from === to) continue
    moved.push({ providerId: `mcp:${next.id}`, label: next.name || next.id, from: from ?? '', to: to ?? '' })
  }
  return moved
}
