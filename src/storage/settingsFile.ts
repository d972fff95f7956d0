/**
 * Settings files (`*.wardflow-settings.json`, format `wardflow.settings` v1, workflow-format.md):
 * - sanitized: every secret emptied and its JSON path listed in `redacted`; safe to post;
 * - full: the same, plus the emptied values encrypted with a passphrase (PBKDF2-SHA-256 +
 *   AES-256-GCM), so the file holds no plaintext secret.
 * Import validates and returns settings + keys; it changes nothing itself (the caller applies).
 */
import { z } from 'zod'
import { version as packageVersion } from '../../package.json'
import { FlowError } from '../engine/index.ts'
import { withDemoProvider, type AppSettings } from '../settings/schema.ts'
import { decryptJson, encryptJson, encryptedEnvelopeSchema } from './crypto.ts'
import { readJsonText } from './jsonText.ts'
import { redactSecrets, type Redaction } from './redact.ts'
import { isPlainObject, type ImportProblem } from './restore/index.ts'
import { mergeSecrets, secretValues, splitSecrets, type Secrets } from './secrets.ts'
import { parseSettingsStrict } from './settingsValidate.ts'
import { getAtPath, parseJsonPath, setAtPath } from './jsonPath.ts'
import { zodIssueText } from '../issueText.ts'

export const SETTINGS_FILE_FORMAT = 'wardflow.settings'
export const SETTINGS_FILE_VERSION = 1
export const APP_VERSION: string = packageVersion

export interface SettingsExportOptions {
  /** ISO time written as `exportedAt`; now by default. */
  exportedAt?: string
  appVersion?: string
}

export interface SettingsExport {
  text: string
  /** JSON paths (e.g. `settings.providers[1].apiKey`) of every value that was emptied. */
  redacted: string[]
}

function redactSettings(
  settings: AppSettings,
  secrets: Secrets,
): { value: unknown; redactions: Redaction[] } {
  const merged = mergeSecrets(settings, secrets)
  const known = [...secretValues(secrets), ...secretValues(splitSecrets(merged).secrets)]
  const { value, redacted } = redactSecrets(merged, 'settings', 'aggressive', known)
  return { value, redactions: redacted }
}

function envelope(
  kind: 'sanitized' | 'full',
  settings: unknown,
  redacted: string[],
  options: SettingsExportOptions,
): Record<string, unknown> {
  return {
    format: SETTINGS_FILE_FORMAT,
    version: SETTINGS_FILE_VERSION,
    kind,
    exportedAt: options.exportedAt ?? new Date().toISOString(),
    app: { version: options.appVersion ?? APP_VERSION },
    settings,
    redacted,
  }
}

/** Settings with every secret removed (keys from `secrets` or already in `settings`). */
export function exportSettingsSanitized(
  settings: AppSettings,
  secrets: Secrets = [],
  options: SettingsExportOptions = {},
): SettingsExport {
  const { value, redactions } = redactSettings(settings, secrets)
  const redacted = redactions.map((r) => r.path)
  return { text: `${JSON.stringify(envelope('sanitized', value, redacted, options), null, 2)}\n`, redacted }
}

/** Settings for another machine: sanitized, plus the removed values encrypted with `passphrase`. */
export async function exportSettingsFull(
  settings: AppSettings,
  secrets: Secrets,
  passphrase: string,
  options: SettingsExportOptions = {},
): Promise<SettingsExport> {
  const { value, redactions } = redactSettings(settings, secrets)
  const redacted = redactions.map((r) => r.path)
  const encrypted = await encryptJson({ values: redactions.map((r) => [r.path, r.original]) }, passphrase)
  const file = { ...envelope('full', value, redacted, options), encrypted }
  return { text: `${JSON.stringify(file, null, 2)}\n`, redacted }
}

/** `wardflow-<kind>-<date>.wardflow-settings.json` */
export function settingsFileName(kind: 'sanitized' | 'full', exportedAt: string): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(exportedAt)?.[0] ?? 'export'
  return `wardflow-${kind}-${day}.wardflow-settings.json`
}

export interface ImportedSettings {
  kind: 'sanitized' | 'full'
  /** Valid settings; for a full file with the keys filled in, for a sanitized one with '' keys. */
  settings: AppSettings
  /** The keys found (empty for a sanitized file). */
  secrets: Secrets
  /** What the import changed in the file's settings, as `path: reason` (the demo provider put back). */
  notes: string[]
  redacted: string[]
  exportedAt: string
  appVersion: string
}

const headerSchema = z.object({
  format: z.literal(SETTINGS_FILE_FORMAT),
  version: z.literal(SETTINGS_FILE_VERSION),
  kind: z.enum(['sanitized', 'full']),
  exportedAt: z.string().default(''),
  app: z.object({ version: z.string() }).default({ version: '' }),
  settings: z.unknown(),
  redacted: z.array(z.string()).default([]),
})

const payloadSchema = z.object({ values: z.array(z.tuple([z.string(), z.string()])) })

/**
 * A refused settings file. The message is English (the CLI prints it); `problems` keep their
 * catalogue keys so the Backup tab can list them in the UI's language.
 */
export class SettingsImportError extends FlowError {
  /** Always set here (a FlowError's problems are optional). */
  declare readonly problems: readonly ImportProblem[]
  constructor(message: string, problems: readonly ImportProblem[], path: string) {
    super('IMPORT_INVALID', message, { details: { path, problems: problems.length }, problems })
  }
}

function invalid(problems: ImportProblem[]): SettingsImportError {
  const first = problems[0] ?? {
    path: '',
    message: 'The file is damaged.',
    key: 'issues:importProblem.settings.damaged',
  }
  const all = problems.length > 0 ? problems : [first]
  const list = all
    .slice(0, 5)
    .map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`))
    .join('; ')
  return new SettingsImportError(
    `This settings file cannot be imported; nothing was changed. ${list}`,
    all,
    first.path,
  )
}

function headerProblems(file: Record<string, unknown>): ImportProblem[] {
  if (file.format !== SETTINGS_FILE_FORMAT) {
    const workflow = file.format === 'wardflow.workflow'
    const hint = workflow ? ' This is a workflow file: import it on the canvas.' : ''
    const found = JSON.stringify(file.format) ?? 'nothing'
    return [
      {
        path: 'format',
        message: `Expected "${SETTINGS_FILE_FORMAT}", found ${found}.${hint}`,
        key: workflow ? 'issues:importProblem.settings.workflowFile' : 'issues:importProblem.wrongFormat',
        params: { format: SETTINGS_FILE_FORMAT, found },
      },
    ]
  }
  if (typeof file.version === 'number' && file.version > SETTINGS_FILE_VERSION) {
    return [
      {
        path: 'version',
        message: `Written by a newer Wardflow (version ${file.version}); update Wardflow to import it.`,
        key: 'issues:importProblem.settings.newerVersion',
        params: { found: file.version },
      },
    ]
  }
  const parsed = headerSchema.safeParse(file)
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, ...zodIssueText(i) }))
}

/**
 * Reads a settings file. Full files need `passphrase` (else or when wrong: WRONG_PASSPHRASE);
 * a damaged file is IMPORT_INVALID with the JSON path in `details.path`. Changes nothing.
 */
export async function importSettingsText(text: string, passphrase?: string): Promise<ImportedSettings> {
  const json = readJsonText(text, 'settings file')
  if (!json.ok) throw invalid(json.problems)
  if (!isPlainObject(json.value))
    throw invalid([
      {
        path: '',
        message: 'A settings file is a JSON object.',
        key: 'issues:importProblem.settings.notObject',
      },
    ])
  const problems = headerProblems(json.value)
  const header = headerSchema.safeParse(json.value)
  if (problems.length > 0 || !header.success) throw invalid(problems)
  const file = header.data
  let settings: unknown = structuredClone(file.settings)
  if (file.kind === 'full') settings = await restoreEncrypted(json.value.encrypted, settings, passphrase)
  const parsed = parseSettingsStrict(settings, 'settings')
  if (!parsed.ok) throw invalid(parsed.problems)
  // A file without the built-in demo provider must not cost the templates theirs.
  const withDemo = withDemoProvider(parsed.settings)
  return {
    kind: file.kind,
    settings: withDemo.settings,
    notes: withDemo.note === undefined ? [] : [withDemo.note],
    secrets: splitSecrets(withDemo.settings).secrets,
    redacted: file.redacted,
    exportedAt: file.exportedAt,
    appVersion: file.app.version,
  }
}

async function restoreEncrypted(
  raw: unknown,
  settings: unknown,
  passphrase: string | undefined,
): Promise<unknown> {
  const env = encryptedEnvelopeSchema.safeParse(raw)
  if (!env.success) {
    throw invalid(
      env.error.issues.map((i) => ({
        path: ['encrypted', ...i.path.map(String)].join('.'),
        message: i.message,
        ...zodIssueText(i),
      })),
    )
  }
  if (passphrase === undefined || passphrase === '') {
    throw new FlowError(
      'WRONG_PASSPHRASE',
      'This export holds encrypted keys: type the passphrase used when it was made.',
      {
        details: { needsPassphrase: true },
      },
    )
  }
  const { value } = await decryptJson(env.data, passphrase)
  const payload = payloadSchema.safeParse(value)
  if (!payload.success)
    throw invalid([
      {
        path: 'encrypted',
        message: 'The encrypted part decrypted to an unexpected shape.',
        key: 'issues:importProblem.settings.encryptedShape',
      },
    ])
  const root = { settings }
  for (const [path, original] of payload.data.values) {
    const segments = parseJsonPath(path)
    if (
      segments === undefined ||
      segments[0] !== 'settings' ||
      typeof getAtPath(root, segments) !== 'string'
    ) {
      throw invalid([
        {
          path,
          message: 'An encrypted value points to a place that is not in the settings.',
          key: 'issues:importProblem.settings.encryptedPath',
        },
      ])
    }
    setAtPath(root, segments, original)
  }
  return root.settings
}
