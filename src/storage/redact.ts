/**
 * Finds and removes secrets in JSON values: fields named like credentials, secret-named
 * headers and query parameters, URL user:password, and token shapes (`sk-…`, `Bearer …`,
 * `ghp_…`, `github_pat_…`, `xox?-…`, `AIza…`, JWTs, private keys) anywhere in any string.
 *
 * Two strengths: `aggressive` (settings exports: when in doubt, redact) and `careful`
 * (workflow exports: prompts must survive, so prose like "bearer of news" is left alone and
 * values that only name a `{{template}}` are kept).
 */
import { IMPORT_MAX_JSON_DEPTH } from '../defaults.ts'
import { isSecretFieldName, isSecretHeaderName, isSecretQueryName } from './secrets.ts'

export type RedactStrength = 'aggressive' | 'careful'

export interface Redaction {
  /** JSON path of the string that changed, e.g. `settings.providers[0].apiKey`. */
  path: string
  /** The string as it was. */
  original: string
}

const NOT_ALNUM_BEFORE = '(?<![A-Za-z0-9])'

/** A token shape; `confirm` may veto a match (e.g. "Basic instructions" is not a credential). */
interface TokenRule {
  pattern: RegExp
  confirm?: (match: string) => boolean
}

/** `Basic <base64>` is a credential only when it decodes to `user:password`. */
function isBasicCredential(match: string): boolean {
  const encoded = match.replace(/^Basic\s+/i, '')
  try {
    return atob(encoded).includes(':')
  } catch {
    return false
  }
}

const CAREFUL_TOKENS: readonly TokenRule[] = [
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}sk-[A-Za-z0-9][A-Za-z0-9_-]{7,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}[sr]k_(?:live|test)_[A-Za-z0-9]{8,}`, 'g') },
  {
    pattern: new RegExp(
      `${NOT_ALNUM_BEFORE}Bearer\\s+(?=[A-Za-z0-9._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{8,}`,
      'g',
    ),
  },
  {
    pattern: new RegExp(`${NOT_ALNUM_BEFORE}Basic\\s+[A-Za-z0-9+/]{4,}={0,2}`, 'g'),
    confirm: isBasicCredential,
  },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}gh[pousr]_[A-Za-z0-9]{10,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}github_pat_[A-Za-z0-9_]{10,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}glpat-[A-Za-z0-9_-]{10,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}xox[abposr]-[A-Za-z0-9-]{8,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}AIza[0-9A-Za-z_-]{20,}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}(?:AKIA|ASIA)[0-9A-Z]{16}`, 'g') },
  { pattern: new RegExp(`${NOT_ALNUM_BEFORE}(?:gsk_|hf_|pplx-|r8_|xai-|nvapi-|fw_)[A-Za-z0-9_-]{20,}`, 'g') },
  { pattern: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
]

/** Settings hold no prose, so here any hint of a token goes, wherever it starts. */
const AGGRESSIVE_TOKENS: readonly TokenRule[] = [
  // `bearer <token>` goes first: the `sk-` rules below would otherwise eat the word "bearer"
  // out of "sk-bearer <token>" and leave the token behind with nothing left to mark it.
  { pattern: /bearer(?:\s+bearer)*\s+[^\s"',;]+/gi },
  ...CAREFUL_TOKENS,
  { pattern: /sk-[A-Za-z0-9_-]*/gi },
  { pattern: /(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AIza)[A-Za-z0-9_-]*/gi },
  { pattern: /(?:gsk_|hf_|pplx-|r8_|xai-|nvapi-)[A-Za-z0-9_-]{8,}/g },
]

/** Every token rule above needs one of these substrings; a string without any skips them all. */
const TOKEN_HINT =
  /sk[-_]|rk_|bearer|basic|gh[pousr]_|github_pat_|glpat-|xox|aiza|akia|asia|eyj|-----begin|gsk_|hf_|pplx-|r8_|xai-|nvapi-|fw_/i

/** `scheme://user:password@` or `scheme://token@` */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s?#@]+@/gi
/**
 * `?name=value` / `&name=value` pairs (also in fragments), and a form body's first pair at the
 * start of the text or of a line (`api_key=...&q=cats`, an HTTP node's body).
 */
const QUERY_PAIR = /(^|[?&#;\n])([^=&?#;\s"']+)=([^&#;?\s"']*)/g
/**
 * `"name": "value"` in JSON text (an HTTP node's body, a prompt showing a request): the value of
 * a credential-named field goes, as it does for a field of the file itself and for headers.
 */
const JSON_PAIR = /("((?:[^"\\\n]|\\.){1,128})"\s*:\s*")((?:[^"\\\n]|\\.)*)(")/g

const TEMPLATES = /\{\{[^{}]*\}\}/g
const HAS_TEMPLATE = /\{\{[^{}]*\}\}/
const AUTH_SCHEME_ONLY = /^\s*(?:bearer|basic|token)?\s*$/i

/** True when a value only names templates (plus an auth scheme): the secret is not in the file. */
export function isTemplateOnly(value: string): boolean {
  return HAS_TEMPLATE.test(value) && AUTH_SCHEME_ONLY.test(value.replace(TEMPLATES, ''))
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Removes token-shaped secrets, URL credentials and secret query values from one string. */
export function redactString(text: string, strength: RedactStrength): string {
  const tokens = strength === 'aggressive' ? AGGRESSIVE_TOKENS : CAREFUL_TOKENS
  let current = text
  // Removing a token can join two fragments into a new one: repeat until nothing changes.
  for (let round = 0; round < 8; round += 1) {
    // Cheap hints first: most strings hold no token prefix, no '@' and no '=' at all.
    const hasToken = TOKEN_HINT.test(current)
    const hasUserinfo = current.includes('@')
    const hasQuery = current.includes('=')
    const hasPair = current.includes('":')
    if (!hasToken && !hasUserinfo && !hasQuery && !hasPair) break
    let next = current
    if (hasToken) {
      for (const { pattern, confirm } of tokens) {
        next = next.replace(pattern, (match: string) =>
          confirm === undefined || confirm(match) ? '' : match,
        )
      }
    }
    if (hasUserinfo) next = next.replace(URL_USERINFO, '$1')
    if (hasQuery)
      next = next.replace(QUERY_PAIR, (match: string, sep: string, name: string, value: string) =>
        value !== '' &&
        (isSecretQueryName(safeDecode(name)) || (strength === 'aggressive' && /^code$/i.test(name))) &&
        !(strength === 'careful' && isTemplateOnly(value))
          ? `${sep}${name}=`
          : match,
      )
    if (hasPair)
      next = next.replace(
        JSON_PAIR,
        (match: string, head: string, name: string, value: string, tail: string) =>
          value !== '' && isSecretFieldName(name) && !(strength === 'careful' && isTemplateOnly(value))
            ? `${head}${tail}`
            : match,
      )
    if (next === current) break
    current = next
  }
  return current
}

/** Whether a field holding `value` under `key` (or a {key, value} pair named `pairKey`) is a secret as a whole. */
function isSecretSlot(
  key: string,
  pairKey: string | undefined,
  value: string,
  strength: RedactStrength,
): boolean {
  if (value === '') return false
  const pairIsSecret =
    pairKey !== undefined &&
    (isSecretHeaderName(pairKey) || (strength === 'aggressive' && isSecretQueryName(pairKey)))
  const named = isSecretFieldName(key) || (key === 'value' && pairIsSecret)
  if (!named) return false
  return !(strength === 'careful' && isTemplateOnly(value))
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  const safe = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? key : JSON.stringify(key)
  if (path === '') return safe === key ? key : `[${safe}]`
  return safe === key ? `${path}.${key}` : `${path}[${safe}]`
}

/**
 * Returns a redacted deep copy of `value` and what changed. `knownSecrets` (plus every value
 * removed from a secret field) are also cut out of every other string, so a key pasted into
 * a URL or label does not survive either.
 */
export function redactSecrets(
  value: unknown,
  basePath: string,
  strength: RedactStrength,
  knownSecrets: readonly string[] = [],
): { value: unknown; redacted: Redaction[] } {
  const whole: string[] = [...knownSecrets]
  const first = walk(value, basePath, strength, whole, 0)
  const needles = [...new Set(whole.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length)
  if (needles.length === 0) return { value: first.value, redacted: first.redacted }
  const changed = new Map(first.redacted.map((r) => [r.path, r.original]))
  const second = scrub(first.value, basePath, needles, changed, 0)
  return { value: second, redacted: [...changed].map(([path, original]) => ({ path, original })) }
}

interface WalkResult {
  value: unknown
  redacted: Redaction[]
}

function walk(
  value: unknown,
  path: string,
  strength: RedactStrength,
  whole: string[],
  depth: number,
): WalkResult {
  if (typeof value === 'string') {
    const next = redactString(value, strength)
    return { value: next, redacted: next === value ? [] : [{ path, original: value }] }
  }
  if (typeof value !== 'object' || value === null || depth > IMPORT_MAX_JSON_DEPTH)
    return { value, redacted: [] }
  const redacted: Redaction[] = []
  if (Array.isArray(value)) {
    const out = value.map((item: unknown, i) => {
      const r = walk(item, childPath(path, i), strength, whole, depth + 1)
      redacted.push(...r.redacted)
      return r.value
    })
    return { value: out, redacted }
  }
  const rec = value as Record<string, unknown>
  const name = typeof rec.key === 'string' ? rec.key : typeof rec.name === 'string' ? rec.name : undefined
  const out: Array<[string, unknown]> = []
  for (const [key, item] of Object.entries(rec)) {
    const at = childPath(path, key)
    if (typeof item === 'string' && isSecretSlot(key, name, item, strength)) {
      whole.push(item)
      redacted.push({ path: at, original: item })
      out.push([key, ''])
      continue
    }
    const r = walk(item, at, strength, whole, depth + 1)
    redacted.push(...r.redacted)
    out.push([key, r.value])
  }
  return { value: Object.fromEntries(out), redacted }
}

function scrub(
  value: unknown,
  path: string,
  needles: readonly string[],
  changed: Map<string, string>,
  depth: number,
): unknown {
  if (typeof value === 'string') {
    const next = needles.reduce((text, needle) => text.split(needle).join(''), value)
    if (next !== value && !changed.has(path)) changed.set(path, value)
    return next
  }
  if (typeof value !== 'object' || value === null || depth > IMPORT_MAX_JSON_DEPTH) return value
  if (Array.isArray(value))
    return value.map((item: unknown, i) => scrub(item, childPath(path, i), needles, changed, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      scrub(item, childPath(path, key), needles, changed, depth + 1),
    ]),
  )
}
