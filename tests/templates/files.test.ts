import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportWorkflowText } from '../../src/storage/workflowFile.ts'
import { loadTemplate, problemsOf, readIndex, readTemplateText, templateFiles } from './harness.ts'

function catalogue(lang: string): Record<string, unknown> {
  const path = resolve(process.cwd(), `src/i18n/${lang}/templates.json`)
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

function lookup(tree: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree)
}

describe('bundled template files', () => {
  const files = templateFiles()
  const index = readIndex()

  it('ships at least the six templates the first visit promises', () => {
    expect(index.format).toBe('wardflow.templates')
    expect(index.version).toBe(1)
    expect(index.templates.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'stuck-agent',
        'alternating-agent',
        'budget-burner',
        'research-agent',
        'js-transform',
        'llm-chain',
      ]),
    )
  })

  it('lists every template file in the index exactly once, and nothing that does not exist', () => {
    const listed = index.templates.map((t) => t.file).sort()
    expect(listed).toEqual(files)
    expect(new Set(index.templates.map((t) => t.id)).size).toBe(index.templates.length)
    for (const entry of index.templates) expect(entry.file).toBe(`${entry.id}.wardflow.json`)
  })

  it.each(files)('%s parses with the import parser, without notes or repairs', (file) => {
    const doc = loadTemplate(file)
    expect(doc.nodes.length).toBeGreaterThan(2)
    expect(doc.metadata.name.trim()).not.toBe('')
    // Re-exporting gives back the same flow: nothing was dropped or rewritten while reading.
    const again = JSON.parse(exportWorkflowText(doc)) as { nodes: unknown[]; edges: unknown[] }
    const original = JSON.parse(readTemplateText(file)) as { nodes: unknown[]; edges: unknown[] }
    expect(again.edges).toEqual(original.edges)
    expect(again.nodes.length).toBe(original.nodes.length)
  })

  it.each(files)('%s passes preflight with no problem at all', (file) => {
    expect(problemsOf(loadTemplate(file))).toEqual([])
  })

  it.each(files)('%s explains itself with a note and never names a key or a remote host', (file) => {
    const doc = loadTemplate(file)
    expect(doc.nodes.filter((n) => n.type === 'note')).toHaveLength(1)
    const text = readTemplateText(file)
    // A server on the person's own machine is no remote host (the MCP template's local server).
    expect(text).not.toMatch(/sk-|Bearer |apiKey|https?:\/\/(?!localhost[:/])/)
  })

  it.each(files)('%s has a name, a description and tags in English and Chinese', (file) => {
    const entry = index.templates.find((t) => t.file === file)
    expect(entry).toBeDefined()
    for (const lang of ['en', 'zh-CN']) {
      const cat = catalogue(lang)
      expect(lookup(cat, entry?.nameKey ?? ''), `${lang} ${entry?.nameKey}`).toEqual(expect.any(String))
      expect(lookup(cat, entry?.descriptionKey ?? ''), `${lang} ${entry?.descriptionKey}`).toEqual(
        expect.any(String),
      )
      for (const tag of entry?.tags ?? [])
        expect(lookup(cat, `tags.${tag}`), `${lang} tag ${tag}`).toEqual(expect.any(String))
    }
  })

  it('translates every note and node label into Chinese under notes/labels.<template id>', () => {
    const zh = catalogue('zh-CN')
    for (const entry of index.templates) {
      const doc = loadTemplate(entry.file)
      for (const note of doc.nodes.filter((n) => n.type === 'note')) {
        expect(lookup(zh, `notes.${entry.id}.${note.id}`), `${entry.id}/${note.id}`).toEqual(
          expect.any(String),
        )
      }
      for (const node of doc.nodes) {
        expect(lookup(zh, `labels.${entry.id}.${node.id}`), `${entry.id}/${node.id}`).toEqual(
          expect.any(String),
        )
      }
    }
  })
})
