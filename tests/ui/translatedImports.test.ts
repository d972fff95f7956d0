/**
 * Refusals of settings and workflow files (settings shapes, PatchCat shapes, "newer Wardflow"
 * versions, the connection cap) in the UI's language: zh-CN readers see Chinese, English readers
 * the exact English texts the CLI prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FLOW_MAX_EDGES } from '../../src/defaults.ts'
import { changeLanguage, i18next, initI18n, ISSUES_NAMESPACE, loadNamespaces } from '../../src/i18n/index.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { importSettingsText, parseWorkflowText, SettingsImportError } from '../../src/storage/index.ts'
import { restoreDocument } from '../../src/storage/restore/index.ts'
import { issueText } from '../../src/ui/kit/issueText.ts'
import { noteText } from '../../src/ui/import/noteText.ts'
import { refusalLines } from '../../src/ui/settings/ImportOutcome.tsx'

const t = (key: string, values?: Record<string, string | number>): string => i18next.t(key, values)
const HAN = /\p{Script=Han}/u

async function settingsRefusal(file: unknown): Promise<{ english: string[]; shown: string[] }> {
  try {
    await importSettingsText(JSON.stringify(file))
  } catch (error) {
    if (!(error instanceof SettingsImportError)) throw error
    const english = error.problems.map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`))
    return { english, shown: refusalLines(error.problems, t) }
  }
  throw new Error('expected a refusal')
}

const settingsFile = (patch: Record<string, unknown>): Record<string, unknown> => ({
  format: 'wardflow.settings',
  version: 1,
  kind: 'sanitized',
  settings: defaultSettings(),
  ...patch,
})

function workflowProblems(file: unknown): Array<{ english: string; shown: string }> {
  const parsed = parseWorkflowText(JSON.stringify(file))
  if (parsed.ok) throw new Error('expected a refusal')
  return parsed.problems.map((p) => ({ english: p.message, shown: issueText(t, p.key, p.params, p.message) }))
}

function edgeCapProblems(): Array<{ english: string; shown: string }> {
  const node = (id: string) => ({
    id,
    type: 'input',
    position: { x: 0, y: 0 },
    data: { label: id, config: {} },
  })
  const edges = Array.from({ length: FLOW_MAX_EDGES + 1 }, (_, i) => ({
    id: `e${i}`,
    source: 'a',
    sourceHandle: `h${i}`,
    target: 'b',
  }))
  const doc = {
    metadata: { id: 'f', name: 'f', createdAt: '', updatedAt: '' },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes: [node('a'), node('b')],
    edges: [...edges, { ...edges[0], id: 'copy' }],
  }
  const restored = restoreDocument(doc, { mode: 'strict' })
  if (restored.ok) throw new Error('expected a refusal')
  return restored.problems.map((p) => ({
    english: p.message,
    shown: issueText(t, p.key, p.params, p.message),
  }))
}

const duplicateIds = (): Record<string, unknown> => {
  const settings = defaultSettings()
  return settingsFile({
    settings: { ...settings, providers: [...settings.providers, ...settings.providers] },
  })
}

const cases: Array<[string, () => Promise<Array<{ english: string; shown: string }>>]> = [
  [
    'a settings file of the wrong format, a workflow file, a newer version, twin provider ids',
    async () => {
      const all = await Promise.all([
        settingsRefusal(settingsFile({ format: 'other' })),
        settingsRefusal(settingsFile({ format: 'wardflow.workflow' })),
        settingsRefusal(settingsFile({ version: 9 })),
        settingsRefusal(duplicateIds()),
        settingsRefusal([1]),
      ])
      return all.flatMap(({ english, shown }) =>
        english.map((e, i) => ({ english: e, shown: shown[i] ?? '' })),
      )
    },
  ],
  [
    'a PatchCat file of the wrong shape',
    async () =>
      Promise.resolve(workflowProblems({ version: '1', nodes: [5, { type: 'prompt' }], edges: {} })),
  ],
  [
    'a workflow file of a newer Wardflow, and node settings of a newer Wardflow',
    async () =>
      Promise.resolve([
        ...workflowProblems({ format: 'wardflow.workflow', version: 7, nodes: [], edges: [] }),
        ...workflowProblems({
          format: 'wardflow.workflow',
          version: 1,
          nodes: [
            {
              id: 'a',
              type: 'input',
              position: { x: 0, y: 0 },
              data: { label: 'a', config: { configVersion: 99 } },
            },
          ],
          edges: [],
        }),
        ...(() => {
          const r = restoreDocument({ nodes: [] }, { mode: 'strict', schemaVersion: 99 })
          if (r.ok) throw new Error('expected a refusal')
          return r.problems.map((p) => ({
            english: p.message,
            shown: issueText(t, p.key, p.params, p.message),
          }))
        })(),
      ]),
  ],
  [
    'a flow with more connections than the cap (after folding copies)',
    async () => Promise.resolve(edgeCapProblems()),
  ],
]

beforeAll(async () => {
  await initI18n('en')
  // What the app loads with everything that words problems (ui/useCatalogues.ts).
  await loadNamespaces([ISSUES_NAMESPACE])
})
afterAll(async () => {
  await changeLanguage('en')
})

describe('in English the refusals keep their exact English words', () => {
  for (const [name, texts] of cases) {
    it(name, async () => {
      await changeLanguage('en')
      const listed = await texts()
      expect(listed.length).toBeGreaterThan(0)
      for (const { english, shown } of listed) expect(shown).toBe(english)
    })
  }
})

describe('in zh-CN the refusals are Chinese', () => {
  for (const [name, texts] of cases) {
    it(name, async () => {
      await changeLanguage('zh-CN')
      const listed = await texts()
      expect(listed.length).toBeGreaterThan(0)
      for (const { shown } of listed) {
        expect(shown).toMatch(HAN)
        expect(shown).not.toMatch(/newer Wardflow|Expected|must be|needs a|Another provider|connections/)
      }
    })
  }

  it('names the cap and the count of a flow with too many connections', async () => {
    await changeLanguage('zh-CN')
    expect(edgeCapProblems().map((p) => p.shown)).toEqual([
      `该工作流有 ${FLOW_MAX_EDGES + 1} 条连线（已合并重复连线）；Wardflow 最多打开 ${FLOW_MAX_EDGES} 条。`,
    ])
  })
})

describe('an import’s notes', () => {
  const node = (id: string) => ({
    id,
    type: 'input',
    position: { x: 0, y: 0 },
    data: { label: id, config: {} },
  })
  const withCopies = (copies: number, distinct: number) => ({
    format: 'wardflow.workflow',
    version: 1,
    metadata: { id: 'f', name: 'f' },
    // Distinct connections go to other nodes: two edges between one pair differ only by handles.
    nodes: [node('a'), node('b'), ...Array.from({ length: distinct - 1 }, (_, i) => node(`x${i}`))],
    edges: [
      ...Array.from({ length: copies + 1 }, (_, i) => ({ id: `c${i}`, source: 'a', target: 'b' })),
      ...Array.from({ length: distinct - 1 }, (_, i) => ({ id: `d${i}`, source: 'a', target: `x${i}` })),
    ],
  })
  const notesOf = (file: unknown): Array<{ english: string; shown: string }> => {
    const parsed = parseWorkflowText(JSON.stringify(file))
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    return parsed.notes.map((n) => ({ english: n, shown: noteText(parsed, n, t) }))
  }
  const files = [
    withCopies(1, 1),
    withCopies(19_999, 1),
    withCopies(3, 4),
    { ...withCopies(2, 1), format: undefined },
  ]

  it('stay exactly as written in English, folded copies included', async () => {
    await changeLanguage('en')
    const all = files.flatMap(notesOf)
    expect(all.map((n) => n.english)).toContain(
      '19999 duplicate connections (the same two nodes and handles joined again) were folded into the one already there; 1 connection remains.',
    )
    for (const { english, shown } of all) expect(shown).toBe(english)
  })

  it('are Chinese in zh-CN: folded copies and a file without a header', async () => {
    await changeLanguage('zh-CN')
    const all = files.flatMap(notesOf)
    expect(all.length).toBeGreaterThanOrEqual(5)
    for (const { shown } of all) expect(shown).toMatch(HAN)
    expect(all.map((n) => n.shown)).toContain(
      '19999 条重复连线（再次连接相同的两个节点和端口）已合并到已有的那条；剩余 1 条连线。',
    )
  })
})
