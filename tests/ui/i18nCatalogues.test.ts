/**
 * The catalogues as a person reads them: every key in both languages (every namespace, nested
 * keys), no English left in a zh-CN text, and one word per term as src/i18n/GLOSSARY.md fixes it.
 */
import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_AGENT_SYSTEM_PROMPT } from '../../src/nodes/agent/schema.ts'
import { DEMO_PROVIDER } from '../../src/settings/schema.ts'
import { catalogueKeys, glossaryDeprecated, latinLeftovers, templateNodeIds } from './catalogueChecks.ts'

const ROOT = join(import.meta.dirname, '../../src/i18n')
const SRC = join(import.meta.dirname, '../../src')
const files = readdirSync(join(ROOT, 'en')).filter((f) => f.endsWith('.json'))

function read(lang: string, file: string): unknown {
  return JSON.parse(readFileSync(join(ROOT, lang, file), 'utf8'))
}

function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]]
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`))
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, path === '' ? k : `${path}.${k}`))
  return []
}

/** zh-CN keeps the names of bundled templates' nodes; their English lives in the template files. */
function templateOnly(key: string): boolean {
  const match = /^(labels|notes)\.([^.]+)\.([^.]+)$/.exec(key)
  return match !== null && templateNodeIds(match[2] as string).has(match[3] as string)
}

describe('every key is in both languages', () => {
  it.each(files)('%s: no key only in English, none only in zh-CN', (file) => {
    const en = catalogueKeys(read('en', file))
    const zh = catalogueKeys(read('zh-CN', file))
    expect({
      missingInZh: [...en].filter((k) => !zh.has(k)),
      missingInEn: [...zh].filter((k) => !en.has(k) && !(file === 'templates.json' && templateOnly(k))),
    }).toEqual({ missingInZh: [], missingInEn: [] })
  })

  it('finds a key missing on either side, nested and in arrays', () => {
    const en = catalogueKeys({ a: { b: 'x', c_one: 'y', c_other: 'z' }, list: ['p', 'q'] })
    expect([...en].sort()).toEqual(['a.b', 'a.c', 'list[0]', 'list[1]'])
    const zh = catalogueKeys({ a: { c_other: 'z' }, list: ['p'] })
    expect([...en].filter((k) => !zh.has(k))).toEqual(['a.b', 'list[1]'])
  })

  it('every catalogue key the code names for issues and problems exists in English', () => {
    const named = new Set<string>()
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.tsx?$/.test(entry.name))
          for (const m of readFileSync(path, 'utf8').matchAll(/'((?:ui|nodes|run):[A-Za-z_.]+)'/g))
            named.add(m[1] as string)
      }
    }
    walk(SRC)
    const en = new Map(files.map((f) => [f.replace(/\.json$/, ''), catalogueKeys(read('en', f))]))
    const missing = [...named].filter((key) => {
      const [ns, rest] = key.split(':') as [string, string]
      const keys = en.get(ns)
      return keys !== undefined && !keys.has(rest) && ![...keys].some((k) => k.startsWith(`${rest}.`))
    })
    expect(named.size).toBeGreaterThan(10)
    expect(missing).toEqual([])
  })
})

describe('no English left in zh-CN', () => {
  it.each(files)('%s: every zh-CN text is Chinese but for names, formats and code', (file) => {
    const left = strings(read('zh-CN', file)).flatMap(([path, text]) => {
      const words = latinLeftovers(text)
      return words.length > 0 ? [`${path}: ${words.join(' ')} (in “${text.slice(0, 60)}”)`] : []
    })
    expect(left).toEqual([])
  })

  it('the check catches English and lets product names, references and code through', () => {
    expect(latinLeftovers('Demo (offline)')).toEqual(['Demo', 'offline'])
    expect(latinLeftovers('用 {{input_1.question}} 调用 Ollama 的 API，见 `return inputs`')).toEqual([])
    expect(latinLeftovers('设置 OLLAMA_ORIGINS，打开 https://example.com/v1 或 data/meetup/*.json')).toEqual(
      [],
    )
    expect(latinLeftovers('提供商 refused the key')).toEqual(['refused', 'the', 'key'])
  })
})

describe('one word per term (src/i18n/GLOSSARY.md)', () => {
  const deprecated = glossaryDeprecated(readFileSync(join(ROOT, 'GLOSSARY.md'), 'utf8'))

  it('the glossary names deprecated words for provider and the template gallery', () => {
    expect(deprecated.get('provider')).toEqual(expect.arrayContaining(['提供方', '服务商', '模型服务']))
    expect(deprecated.get('template gallery, example flow')).toContain('模板库')
  })

  it.each(files)('%s uses no deprecated zh-CN term', (file) => {
    const found = strings(read('zh-CN', file)).flatMap(([path, text]) =>
      [...deprecated].flatMap(([term, words]) =>
        words.filter((w) => text.includes(w)).map((w) => `${path}: “${w}” (${term})`),
      ),
    )
    expect(found).toEqual([])
  })

  it('the template gallery is never called 模板 (that is the Template node)', () => {
    const gallery = read('zh-CN', 'templates.json') as { gallery: Record<string, string>; errors: object }
    const texts = [...Object.values(gallery.gallery), ...strings(gallery.errors).map(([, t]) => t)]
    expect(texts.filter((t) => t.includes('模板'))).toEqual([])
    const ui = read('zh-CN', 'ui.json') as { toolbar: { templates: string }; welcome: { templates: string } }
    expect([ui.toolbar.templates, ui.welcome.templates].filter((t) => t.includes('模板'))).toEqual([])
  })
})

describe('texts the code also holds in English', () => {
  it('the default Agent prompt and the Demo provider name match their English catalogue entries', () => {
    const nodes = read('en', 'nodes.json') as { agent: { defaultSystemPrompt: string } }
    const ui = read('en', 'ui.json') as { providerNames: { demo: string } }
    expect(nodes.agent.defaultSystemPrompt).toBe(DEFAULT_AGENT_SYSTEM_PROMPT)
    expect(ui.providerNames.demo).toBe(DEMO_PROVIDER.label)
  })
})
