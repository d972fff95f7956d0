/** The catalogue checks of i18nCatalogues.test.ts, kept apart so their own behaviour is tested. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const PLURAL = /_(zero|one|two|few|many|other)$/

/** Dotted keys of a catalogue (array items as `[i]`), plural forms folded into their base key. */
export function catalogueKeys(value: unknown, prefix = ''): Set<string> {
  const out = new Set<string>()
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      for (const key of catalogueKeys(v, `${prefix}[${i}]`)) out.add(key)
    })
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      for (const key of catalogueKeys(v, prefix === '' ? k : `${prefix}.${k}`)) out.add(key)
  } else {
    out.add(prefix.replace(PLURAL, ''))
  }
  return out
}

/**
 * Latin words a zh-CN text may hold: product names, protocols, formats, units, key names and the
 * JSON words a field's help quotes (lower case; see src/i18n/GLOSSARY.md).
 */
export const LATIN_ALLOWED: ReadonlySet<string> = new Set(
  [
    'wardflow patchcat ollama lm studio anthropic openai monaco quickjs indexeddb',
    'json schema http https api url id js javascript llm markdown html csv jsonl cors sse mcp otlp pdf bm25',
    'get post put patch delete head options',
    'token mb kb pbkdf sha aes gcm worker promise',
    'enter esc tab shift ctrl alt cmd space',
    // Single-letter keys a shortcut names (C connects a node).
    'a b c x y',
    // Words of code and JSON a help text quotes: field names, literals, the LM Studio switch.
    'args inputs return then repeat last type object text result answer null true false prototype constructor',
    'authorization content enable',
  ]
    .join(' ')
    .split(' '),
)

/** Words in Latin letters left in `text` once references, code, URLs, paths and identifiers are gone. */
export function latinLeftovers(text: string): string[] {
  const stripped = text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/"[\w-]+"/g, ' ') // a quoted JSON name or value: "format", "repeat-last"
    .replace(/--[\w-]+/g, ' ') // a CLI option: --input
    .replace(/[\w.*-]*[/][\w.*/-]*/g, ' ') // paths: data/meetup/*.json
    .replace(/\b[\w-]*[_.\d][\w.-]*\b/g, ' ') // identifiers: OLLAMA_ORIGINS, inputs.http_1, v1, 5xx
  return (stripped.match(/[A-Za-z]+/g) ?? []).filter((w) => !LATIN_ALLOWED.has(w.toLowerCase()))
}

/** The glossary's deprecated zh-CN words per term: its table's third column, `/`-separated. */
export function glossaryDeprecated(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    // | term | zh-CN | deprecated | note |  ->  ['', term, zh, deprecated, note, '']
    if (cells.length < 6 || cells[1] === '' || /^-+$/.test(cells[1] ?? '') || cells[1] === 'Term (en)')
      continue
    const words = (cells[3] ?? '')
      .split('/')
      .map((w) => w.trim())
      .filter((w) => w !== '')
    if (words.length > 0) out.set(cells[1] as string, words)
  }
  return out
}

const TEMPLATES = join(import.meta.dirname, '../../public/templates')

/** Node ids of a bundled template (`public/templates/<id>.wardflow.json`); empty if there is none. */
export function templateNodeIds(templateId: string): Set<string> {
  try {
    const file = JSON.parse(readFileSync(join(TEMPLATES, `${templateId}.wardflow.json`), 'utf8')) as {
      nodes: Array<{ id: string }>
    }
    return new Set(file.nodes.map((n) => n.id))
  } catch {
    return new Set()
  }
}
