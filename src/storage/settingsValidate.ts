/**
 * Validates stored or imported settings against appSettingsSchema. For stored settings, fields
 * that fail are replaced by their defaults one by one (a bad theme must not cost the providers).
 */
import {
  appSettingsSchema,
  defaultSettings,
  providerSettingsSchema,
  type AppSettings,
} from '../settings/schema.ts'
import { formatPath } from '../nodes/types.ts'
import { isPlainObject, type ImportProblem } from './restore/schema.ts'
import { zodIssueText } from '../issueText.ts'

export interface SettingsCheck {
  settings: AppSettings
  /** What was replaced by defaults, as `path: reason`. */
  notes: string[]
}

/** Strict: the settings as given, or the problems with their paths under `prefix`. */
export function parseSettingsStrict(
  raw: unknown,
  prefix: string,
): { ok: true; settings: AppSettings } | { ok: false; problems: ImportProblem[] } {
  const parsed = appSettingsSchema.safeParse(raw)
  if (parsed.success) {
    // Two providers with one id: nodes and the resolver take the first, so a file that "moves"
    // a provider by adding a second copy would report success and change nothing that runs.
    const seen = new Set<string>()
    const problems: ImportProblem[] = []
    parsed.data.providers.forEach((p, i) => {
      if (seen.has(p.id))
        problems.push({
          path: `${prefix}.providers[${i}].id`,
          message: `Another provider already has the id "${p.id}".`,
          key: 'issues:importProblem.settings.providerIdTwice',
          params: { id: p.id },
        })
      seen.add(p.id)
    })
    return problems.length === 0 ? { ok: true, settings: parsed.data } : { ok: false, problems }
  }
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const rest = formatPath(issue.path)
      return {
        path: rest === '' ? prefix : rest.startsWith('[') ? `${prefix}${rest}` : `${prefix}.${rest}`,
        message: issue.message,
        ...zodIssueText(issue),
      }
    }),
  }
}

/** Lenient: keeps every valid field, defaults the rest, and says which. Never throws. */
export function repairSettings(raw: unknown): SettingsCheck {
  const whole = appSettingsSchema.safeParse(raw)
  if (whole.success) return { settings: whole.data, notes: [] }
  const defaults = defaultSettings()
  if (!isPlainObject(raw))
    return { settings: defaults, notes: raw === undefined ? [] : ['settings: unreadable, defaults used'] }
  const notes: string[] = []
  const shape = appSettingsSchema.shape
  const out: Record<string, unknown> = { ...defaults }
  for (const key of Object.keys(shape) as Array<keyof typeof shape>) {
    if (key === 'providers') continue
    const field = shape[key].safeParse(raw[key])
    if (field.success) out[key] = field.data
    else if (raw[key] !== undefined) notes.push(`${key}: invalid, default used`)
  }
  const providers = Array.isArray(raw.providers) ? raw.providers : undefined
  if (providers === undefined) {
    if (raw.providers !== undefined) notes.push('providers: invalid, default used')
  } else {
    const kept: AppSettings['providers'] = []
    const seen = new Set<string>()
    providers.forEach((p: unknown, i) => {
      const provider = providerSettingsSchema.safeParse(p)
      if (provider.success && !seen.has(provider.data.id)) {
        seen.add(provider.data.id)
        kept.push(provider.data)
      } else notes.push(`providers[${i}]: invalid, left out`)
    })
    out.providers = kept
  }
  const settings = appSettingsSchema.safeParse(out)
  return settings.success
    ? { settings: settings.data, notes }
    : { settings: defaults, notes: [...notes, 'settings: defaults used'] }
}
