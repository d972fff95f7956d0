/**
 * PatchCat code and http nodes -> Wardflow config. Code nodes in PatchCat read their own
 * `data.inputs` (templates resolved) as `inputs`; Wardflow's `inputs` holds the upstream
 * outputs by node id, so the importer prepends one line that rebuilds PatchCat's object from them.
 */
import { HTTP_RETRIES_RANGE, HTTP_TIMEOUT_RANGE_MS, SANDBOX_TIMEOUT_RANGE_MS } from '../defaults.ts'
import { extractRefs, type PathSegment } from '../engine/index.ts'
import { toBase64 } from './crypto.ts'
import { keyValues, PatchCatData, PlaceholderReason } from './patchcatNodes.ts'
import { isPlainObject } from './restore/index.ts'

/** Rewrites a PatchCat template into Wardflow's ids and output names. */
export type RefRewriter = (text: string) => string

function jsPath(path: readonly PathSegment[]): string {
  return path.map((s) => `?.[${typeof s === 'number' ? s : JSON.stringify(s)}]`).join('')
}

/** A JavaScript expression computing what PatchCat would have put in `inputs[key]`. */
function inputExpression(value: unknown, rewrite: RefRewriter): { js: string; usesText: boolean } {
  if (typeof value !== 'string') return { js: JSON.stringify(value ?? null), usesText: false }
  const text = rewrite(value)
  const refs = extractRefs(text)
  const lookup = (i: number): string => {
    const ref = refs[i]
    if (ref === undefined) return 'undefined'
    const read = `inputs[${JSON.stringify(ref.nodeId)}]${jsPath(ref.path)}`
    return ref.fallback === undefined ? read : `(${read} ?? ${JSON.stringify(ref.fallback)})`
  }
  if (refs.length === 0) return { js: JSON.stringify(text), usesText: false }
  // A value that is one whole reference keeps the referenced value as it is (object, number, ...).
  if (refs.length === 1 && refs[0]?.raw === text.trim()) return { js: lookup(0), usesText: false }
  const parts: string[] = []
  let at = 0
  refs.forEach((ref, i) => {
    if (ref.start > at) parts.push(JSON.stringify(text.slice(at, ref.start)))
    parts.push(`__text(${lookup(i)})`)
    at = ref.end
  })
  if (at < text.length) parts.push(JSON.stringify(text.slice(at)))
  return { js: parts.join(' + '), usesText: true }
}

const TEXT_HELPER =
  "const __text = (v) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)); "

/** One line (no newline, so error line numbers still match the code) rebuilding PatchCat's `inputs`. */
function inputsPrelude(inputs: Record<string, unknown>, rewrite: RefRewriter): string {
  const entries = Object.entries(inputs).map(([key, value]) => ({ key, ...inputExpression(value, rewrite) }))
  if (entries.length === 0) return ''
  const helper = entries.some((e) => e.usesText) ? TEXT_HELPER : ''
  const object = entries.map((e) => `${JSON.stringify(e.key)}: ${e.js}`).join(', ')
  return `${helper}inputs = { ${object} }; `
}

export function mapCode(d: PatchCatData, rewrite: RefRewriter): Record<string, unknown> | PlaceholderReason {
  const language = d.text('language', ['config'])
  if (language !== undefined && !/^(js|javascript|ecmascript)$/i.test(language)) {
    return new PlaceholderReason(
      `cannot run here (its code is ${language}, and Wardflow runs JavaScript only)`,
      'issues:importNote.patchcat.placeholder.language',
      { language },
    )
  }
  const code = d.text('script', ['config']) ?? d.text('code', ['config', 'inputs']) ?? ''
  const own = Object.fromEntries(Object.entries(d.inputs).filter(([key]) => key !== 'code'))
  for (const key of Object.keys(own)) d.take(key, ['inputs'])
  const prelude = inputsPrelude(own, rewrite)
  if (prelude !== '') {
    const inputs = Object.keys(own).join(', ')
    d.note(
      `its inputs (${inputs}) are rebuilt from the upstream outputs by a line added before the code.`,
      'issues:importNote.patchcat.codeInputs',
      { inputs },
    )
  }
  const out: Record<string, unknown> = { code: prelude + code }
  const timeout =
    d.number('timeout', SANDBOX_TIMEOUT_RANGE_MS, 'timeout') ??
    d.number('timeoutMs', SANDBOX_TIMEOUT_RANGE_MS, 'timeoutMs')
  if (timeout !== undefined) out.timeoutMs = timeout
  return out
}

function hasHeader(headers: Array<{ key: string }>, name: string): boolean {
  return headers.some((h) => h.key.toLowerCase() === name.toLowerCase())
}

/** PatchCat's auth tab -> a header or query value (kept in the flow, left out of every export). */
function mapAuth(
  d: PatchCatData,
  headers: Array<{ key: string; value: string }>,
  query: Array<{ key: string; value: string }>,
): void {
  const type = d.text('authType', ['config'])
  const raw = d.take('authConfig', ['config'])
  const auth = isPlainObject(raw) ? raw : {}
  const str = (v: unknown): string => (typeof v === 'string' ? v : '')
  if (type === undefined || type === 'none') return
  if (type === 'bearer' && str(auth.token) !== '')
    headers.push({ key: 'Authorization', value: `Bearer ${str(auth.token)}` })
  else if (type === 'basic' && !`${str(auth.username)}${str(auth.password)}`.includes('{{')) {
    const pair = new TextEncoder().encode(`${str(auth.username)}:${str(auth.password)}`)
    headers.push({ key: 'Authorization', value: `Basic ${toBase64(pair)}` })
  } else if (type === 'api-key' && str(auth.keyName) !== '') {
    ;(auth.addTo === 'query' ? query : headers).push({ key: str(auth.keyName), value: str(auth.keyValue) })
  } else {
    d.note(
      `authentication "${type}" could not be converted; set the header again.`,
      'issues:importNote.patchcat.authNotConverted',
      { type },
    )
    return
  }
  const toQuery = auth.addTo === 'query'
  d.note(
    `authentication "${type}" became a request ${toQuery ? 'query value' : 'header'} (left out of every export).`,
    toQuery ? 'issues:importNote.patchcat.authQuery' : 'issues:importNote.patchcat.authHeader',
    { type },
  )
}

function mapRetry(d: PatchCatData, out: Record<string, unknown>): void {
  for (const key of ['retry', 'retryConfig']) {
    const retry = d.take(key, ['config'])
    if (!isPlainObject(retry)) continue
    const sub = new PatchCatData({ config: retry }, d.notes, d.nodeId)
    const retries = sub.number('maxRetries', HTTP_RETRIES_RANGE, `${key}.maxRetries`)
    if (retries !== undefined) out.retries = retries
    const rest = sub.leftovers().map((k) => `${key}.${k.slice('config.'.length)}`)
    if (rest.length > 0) {
      const fields = rest.join(', ')
      d.note(
        `${fields} not kept (Wardflow retries with its own backoff).`,
        'issues:importNote.patchcat.retry',
        {
          fields,
        },
      )
    }
  }
}

export function mapHttp(d: PatchCatData): Record<string, unknown> {
  const headers = keyValues(d.take('headers', ['config']))
  const query = keyValues(
    d.take('queryParams', ['config']) ?? d.take('query', ['config']) ?? d.take('params', ['config']),
  )
  const out: Record<string, unknown> = {
    method: (d.text('method', ['config']) ?? 'GET').toUpperCase(),
    url: d.text('url', ['config', 'inputs']) ?? '',
    headers,
    query,
  }
  const bodyType = d.text('bodyType', ['config'])
  const content = d.take('bodyContent', ['config']) ?? d.take('body', ['config', 'inputs'])
  if (content !== undefined && content !== null && bodyType !== 'none') {
    out.body = typeof content === 'string' ? content : JSON.stringify(content, null, 2)
    if (bodyType === 'json' && !hasHeader(headers, 'content-type'))
      headers.push({ key: 'Content-Type', value: 'application/json' })
  } else if (bodyType === 'none' && typeof content === 'string' && content !== '') {
    d.note(
      'its body was not sent in PatchCat (body type "none") and is left out.',
      'issues:importNote.patchcat.bodyNone',
    )
  }
  mapAuth(d, headers, query)
  const timeout = d.number('timeout', HTTP_TIMEOUT_RANGE_MS) ?? d.number('timeoutMs', HTTP_TIMEOUT_RANGE_MS)
  if (timeout !== undefined) out.timeoutMs = timeout
  mapRetry(d, out)
  const unused = new Set(d.leftovers())
  const inputs = Object.keys(d.inputs).filter((k) => unused.has(`inputs.${k}`))
  for (const key of inputs) d.take(key, ['inputs'])
  if (inputs.length > 0) {
    const list = inputs.join(', ')
    d.note(
      `inputs ${list} not needed: Wardflow reads the references in the URL, query, headers and body.`,
      'issues:importNote.patchcat.httpInputs',
      { inputs: list },
    )
  }
  return out
}
