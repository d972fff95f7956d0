import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { nodeDefinitions } from '../../src/nodes/registry.ts'
import enNodes from '../../src/i18n/en/nodes.json'
import zhNodes from '../../src/i18n/zh-CN/nodes.json'
import enFields from '../../src/i18n/en/fields.json'
import zhFields from '../../src/i18n/zh-CN/fields.json'
import enErrors from '../../src/i18n/en/errors.json'
import zhErrors from '../../src/i18n/zh-CN/errors.json'

function lookup(catalogue: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined,
      catalogue,
    )
}

describe('node and error catalogues', () => {
  it('has an English and a Chinese text for every nodes: and fields: key a node definition uses', async () => {
    // The agent node keeps its field texts in its own `agent` catalogue, tested with it.
    const fieldLists = await Promise.all(nodeDefinitions.map((d) => d.fields()))
    const keys = nodeDefinitions
      .flatMap((d, i) => [
        d.labelKey,
        d.descriptionKey,
        ...(fieldLists[i] ?? []).flatMap((f) => [
          f.labelKey,
          ...(f.helpKey ? [f.helpKey] : []),
          ...(f.options ?? []).map((o) => o.labelKey),
        ]),
      ])
      .filter((key) => key.startsWith('nodes:') || key.startsWith('fields:'))
    expect(keys.length).toBeGreaterThan(40)
    // Field texts live in their own catalogue, which loads with the inspector's form.
    expect(keys.filter((key) => key.startsWith('fields:')).length).toBeGreaterThan(20)
    for (const key of keys) {
      const [ns, path] = key.split(':') as [string, string]
      const [en, zh] = ns === 'fields' ? [enFields, zhFields] : [enNodes, zhNodes]
      expect(typeof lookup(en, path), `en ${key}`).toBe('string')
      expect(typeof lookup(zh, path), `zh-CN ${key}`).toBe('string')
    }
  })

  it('explains every FlowError code in both languages', () => {
    const source = readFileSync(new URL('../../src/engine/errors.ts', import.meta.url), 'utf8')
    const union = source.slice(
      source.indexOf('export type FlowErrorCode'),
      source.indexOf('export interface FlowErrorOptions'),
    )
    const codes = [...union.matchAll(/\| '([A-Z_]+)'/g)].map((m) => m[1] as string)
    expect(codes.length).toBeGreaterThan(40)
    expect(Object.keys(enErrors).sort()).toEqual([...codes].sort())
    expect(Object.keys(zhErrors).sort()).toEqual([...codes].sort())
    for (const code of codes) {
      const zh = (zhErrors as Record<string, string>)[code] ?? ''
      expect(/[\u4e00-\u9fff]/.test(zh), `zh-CN ${code} is translated`).toBe(true)
    }
  })
})
