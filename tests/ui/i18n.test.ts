import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  catalogueFiles,
  changeLanguage,
  i18next,
  initI18n,
  START_NAMESPACES,
  startCatalogueFiles,
  UNTITLED_FLOW_NAMES,
} from '../../src/i18n/index.ts'

const ROOT = join(import.meta.dirname, '../../src/i18n')
const PLURAL = /_(zero|one|two|few|many|other)$/

/** Dotted keys of a catalogue, plural forms folded into their base key. */
function keys(value: unknown, prefix = ''): Set<string> {
  const out = new Set<string>()
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value))
      for (const key of keys(v, prefix === '' ? k : `${prefix}.${k}`)) out.add(key)
  } else {
    out.add(prefix.replace(PLURAL, ''))
  }
  return out
}

function read(lang: string, file: string): unknown {
  return JSON.parse(readFileSync(join(ROOT, lang, file), 'utf8'))
}

describe('catalogues', () => {
  const files = readdirSync(join(ROOT, 'en')).filter((f) => f.endsWith('.json'))

  it('every English catalogue has a Chinese one and no Chinese catalogue is orphaned', () => {
    expect(
      readdirSync(join(ROOT, 'zh-CN'))
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual([...files].sort())
  })

  it.each(files)('%s: every English key is translated into zh-CN', (file) => {
    const en = [...keys(read('en', file))].sort()
    const zh = keys(read('zh-CN', file))
    expect(en.filter((k) => !zh.has(k))).toEqual([])
  })

  // Other areas may keep zh-only keys on purpose (e.g. translated names of bundled templates,
  // whose English lives in the template files); the editor's catalogue must match exactly.
  it('ui.json has exactly the same keys in en and zh-CN', () => {
    expect([...keys(read('zh-CN', 'ui.json'))].sort()).toEqual([...keys(read('en', 'ui.json'))].sort())
  })

  it('UNTITLED_FLOW_NAMES holds the default flow name of every language, and nothing else', () => {
    const names = ['en', 'zh-CN'].map(
      (lang) => (read(lang, 'ui.json') as { flows: { untitled: string } }).flows.untitled,
    )
    expect([...UNTITLED_FLOW_NAMES].sort()).toEqual(names.sort())
  })

  it.each(files)('%s has no empty Chinese string where English has text', (file) => {
    const walk = (en: unknown, zh: unknown, path: string): string[] => {
      if (typeof en === 'string') return en !== '' && zh === '' ? [path] : []
      if (en === null || typeof en !== 'object' || zh === null || typeof zh !== 'object') return []
      return Object.keys(en).flatMap((k) =>
        walk((en as Record<string, unknown>)[k], (zh as Record<string, unknown>)[k], `${path}.${k}`),
      )
    }
    expect(walk(read('en', file), read('zh-CN', file), file)).toEqual([])
  })

  it('loads every namespace the build bundles, and switches language and back', async () => {
    await initI18n('en')
    expect(new Set(catalogueFiles().map((c) => c.ns))).toEqual(
      new Set(files.map((f) => f.replace(/\.json$/, ''))),
    )
    expect(i18next.t('toolbar.undo')).toBe('Undo')
    await changeLanguage('zh-CN')
    expect(i18next.t('toolbar.undo')).toBe('撤销')
    expect(i18next.t('flows.nodes', { count: 3 })).toBe('3 个节点')
    await changeLanguage('en')
    expect(i18next.t('flows.nodes', { count: 1 })).toBe('1 node')
  })

  it('fetches exactly the start namespaces as JSON, and has their words before the first render', async () => {
    expect(startCatalogueFiles().sort()).toEqual(START_NAMESPACES.map((ns) => `./en/${ns}.json`).sort())
    await initI18n('en')
    for (const ns of START_NAMESPACES) expect(i18next.hasResourceBundle('en', ns), ns).toBe(true)
    expect(i18next.t('run:status.running')).toBe('Running')
  })
})
