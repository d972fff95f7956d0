/**
 * PatchCat control flow -> Wardflow condition, merge, loop and subflow (flow-control.md,
 * "PatchCat mapping"), on synthetic files written for these tests (tests/fixtures/workflows/
 * patchcat-synthetic-*.json) and small inline nodes.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changeLanguage, i18next, initI18n } from '../../src/i18n/index.ts'
import { noteText } from '../../src/ui/import/noteText.ts'
import { importPatchCat } from '../../src/storage/patchcat.ts'
import type { KeyedNote, NodeLookup } from '../../src/storage/restore/index.ts'
import type { FlowDocument, FlowNode } from '../../src/engine/index.ts'
import { LOOP_CONCURRENCY_RANGE } from '../../src/defaults.ts'
import { withFlowTypes, withoutFlowTypes } from './flowStandIns.ts'

function fixture(name: string): Record<string, unknown> {
  const text = readFileSync(new URL(`../fixtures/workflows/${name}`, import.meta.url), 'utf8')
  return JSON.parse(text) as Record<string, unknown>
}

/** Notes every import may write (summary, rewritten references, ...), not the control-flow ones. */
const GENERAL_NOTES = new Set(['summary', 'refsRewritten', 'descriptions', 'noPosition', 'leftOver']).values()
const GENERAL = new Set([...GENERAL_NOTES].map((k) => `issues:importNote.patchcat.${k}`))

/** The converted file, and the keyed notes the control-flow mapping wrote (the general ones aside). */
function load(file: Record<string, unknown>, lookup: NodeLookup = withFlowTypes) {
  const result = importPatchCat(file, lookup)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const keyed = (result.keyedNotes ?? []).filter((k) => !GENERAL.has(k.key))
  return { doc: result.doc, notes: result.notes, keyed }
}

function node(doc: FlowDocument, id: string): FlowNode {
  const found = doc.nodes.find((n) => n.id === id)
  if (found === undefined) throw new Error(`no node ${id}`)
  return found
}

const catalogues = {
  en: JSON.parse(readFileSync(new URL('../../src/i18n/en/issues.json', import.meta.url), 'utf8')) as unknown,
  'zh-CN': JSON.parse(
    readFileSync(new URL('../../src/i18n/zh-CN/issues.json', import.meta.url), 'utf8'),
  ) as unknown,
}

/** The catalogue text of `issues:a.b.c`, or undefined. */
function catalogueText(catalogue: unknown, key: string): string | undefined {
  let at: unknown = catalogue
  for (const part of key.replace(/^issues:/, '').split('.'))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined
  return typeof at === 'string' ? at : undefined
}

/** Every keyed note is one of the notes, and both catalogues word it with every one of its values. */
function expectWorded(notes: readonly string[], keyed: readonly KeyedNote[]): void {
  for (const note of keyed) {
    expect(notes).toContain(note.text)
    for (const [language, catalogue] of Object.entries(catalogues)) {
      const text = catalogueText(catalogue, note.key)
      expect(text, `${note.key} in ${language}`).toBeDefined()
      for (const name of Object.keys(note.params ?? {})) expect(text).toContain(`{{${name}}}`)
    }
  }
}

/** A one-condition PatchCat file around `config`, with edges from `handles`. */
function conditionFile(
  config: Record<string, unknown>,
  handles: string[],
  inputs = {},
): Record<string, unknown> {
  return {
    version: '1.0.0',
    nodes: [
      { id: 'src', type: 'input', position: { x: 0, y: 0 }, data: { inputs: { v: 'x' } } },
      { id: 'c', type: 'condition', position: { x: 1, y: 0 }, data: { config, inputs } },
      ...handles.map((_, i) => ({ id: `t${i}`, type: 'prompt', position: { x: 2, y: i }, data: {} })),
    ],
    edges: [
      { id: 'in', source: 'src', target: 'c' },
      ...handles.map((h, i) => ({ id: `e${i}`, source: 'c', sourceHandle: h, target: `t${i}` })),
    ],
  }
}

describe('PatchCat condition -> condition', () => {
  it('the editor shape: one rule per branch, its targetHandle, defaultBranch and every operator kind', () => {
    const { doc, notes, keyed } = load(fixture('patchcat-synthetic-router.json'))
    const gate = node(doc, 'gate')
    expect(gate.type).toBe('condition')
    expect(gate.data.config).toEqual({
      cases: [
        {
          id: 'refund',
          match: 'all',
          rules: [{ value: '{{order.note}}', op: 'matches', to: 'refund\\s+now', ignoreCase: true }],
        },
        // `amount` is the node's own input: PatchCat read it there, so its template is the value.
        { id: 'big', match: 'all', rules: [{ value: '{{order.amount}}', op: 'gt', to: '100' }] },
        // A second branch on the `refund` handle keeps first-match order as a case of its own.
        { id: 'refund_3', match: 'all', rules: [{ value: '{{order.note}}', op: 'isEmpty' }] },
      ],
    })
    const fromGate = doc.edges.filter((e) => e.source === 'gate')
    expect(fromGate.map((e) => [e.id, e.sourceHandle, e.target])).toEqual([
      ['b', 'refund', 'refund_text'],
      ['b_refund_3', 'refund_3', 'refund_text'],
      ['c', 'big', 'big_text'],
      ['d', 'else', 'other_text'],
    ])
    // Output names: PatchCat's activeBranch is the condition's case.
    expect(node(doc, 'report').data.config).toMatchObject({
      values: { all: '{{collect.result}}', branch: '{{gate.case}}' },
    })
    expect(notes.join('\n')).toContain('"nowhere", which is none of its cases nor its default')
    expect(keyed.map((k) => k.key)).toEqual([
      'issues:importNote.patchcat.caseRenamed',
      'issues:importNote.patchcat.edgeNoCase',
    ])
    expectWorded(notes, keyed)
  })

  it('the cases shape: and/or, a variable without braces, `default` -> `else`, renamed ids', () => {
    const file = conditionFile(
      {
        cases: [
          {
            id: 'else',
            label: 'Urgent',
            logicalOperator: 'or',
            conditions: [
              { variable: 'src.v', operator: 'not_contains', value: 'calm' },
              { variable: 'src.v', operator: 'less_than', value: 3 },
            ],
          },
          { id: 'case two!', conditions: [{ variable: 'src.v', operator: 'is_not_empty' }] },
        ],
      },
      ['else', 'case two!', 'default'],
    )
    const { doc, notes, keyed } = load(file)
    expect(node(doc, 'c').data.config).toEqual({
      cases: [
        {
          id: 'case_1',
          label: 'Urgent',
          match: 'any',
          rules: [
            { value: '{{src.v}}', op: 'notContains', to: 'calm', ignoreCase: true },
            { value: '{{src.v}}', op: 'lt', to: '3' },
          ],
        },
        { id: 'case_two_', match: 'all', rules: [{ value: '{{src.v}}', op: 'isNotEmpty' }] },
      ],
    })
    // `else` was a case id in PatchCat: its edges follow the case, and also leave from Wardflow's
    // else, which is what PatchCat's `else` default handle meant when no case held.
    expect(doc.edges.filter((e) => e.source === 'c').map((e) => [e.sourceHandle, e.target])).toEqual([
      ['case_1', 't0'],
      ['else', 't0'],
      ['case_two_', 't1'],
      ['else', 't2'],
    ])
    expect(keyed.map((k) => k.params)).toEqual([
      { node: 'c', from: 'else', to: 'case_1' },
      { node: 'c', from: 'case two!', to: 'case_two_' },
    ])
    expectWorded(notes, keyed)
  })

  it.each([
    [{ mode: 'expression', expression: 'inputs.v > 1' }, 'conditionExpression', {}],
    [
      { cases: [{ id: 'a', conditions: [{ variable: 'src.v', operator: 'in', value: 'x' }] }] },
      'unknownOperator',
      { case: 1, rule: 1, operator: 'in' },
    ],
    [
      { cases: [{ id: 'a', logicalOperator: 'xor', conditions: [{ variable: 'src.v' }] }] },
      'unknownLogic',
      { case: 1, logic: 'xor' },
    ],
    [{ cases: [{ id: 'a', conditions: [] }] }, 'caseNoRules', { case: 1 }],
    [{ cases: [] }, 'conditionNoCases', {}],
    [{ cases: [{ id: 'a', conditions: ['x'] }] }, 'ruleNotObject', { case: 1, rule: 1 }],
  ])(
    'what it cannot carry over keeps the node as a placeholder, with a keyed note (%j)',
    (config, key, params) => {
      const { doc, notes, keyed } = load(conditionFile(config, ['a']))
      expect(node(doc, 'c')).toMatchObject({
        type: 'unsupported',
        data: { config: { originalType: 'condition' } },
      })
      // The placeholder keeps PatchCat's handle, so nothing of the branch is lost.
      expect(doc.edges.find((e) => e.source === 'c')?.sourceHandle).toBe('a')
      expect(keyed).toEqual([
        {
          text: expect.any(String),
          key: `issues:importNote.patchcat.${key}`,
          params: { ...params, node: 'c' },
        },
      ])
      expectWorded(notes, keyed)
    },
  )

  it('an edge from no handle, which PatchCat always followed, leaves from every case and else', () => {
    const config = {
      cases: [
        { id: 'a', conditions: [{ variable: 'src.v', operator: 'equals', value: 'x' }] },
        { id: 'b', conditions: [{ variable: 'src.v', operator: 'equals', value: 'y' }] },
      ],
    }
    const file = conditionFile(config, ['a'])
    const edges = file.edges as Array<Record<string, unknown>>
    edges.push({ id: 'always', source: 'c', target: 't0' })
    const { doc, notes, keyed } = load(file)
    expect(doc.edges.filter((e) => e.source === 'c').map((e) => [e.id, e.sourceHandle])).toEqual([
      ['e0', 'a'],
      // `always` from `a` would repeat e0.
      ['always_b', 'b'],
      ['always_else', 'else'],
    ])
    expect(keyed.map((k) => k.key)).toEqual(['issues:importNote.patchcat.edgeEveryCase'])
    expectWorded(notes, keyed)
  })

  it('an empty variable reads the node’s first input, as PatchCat did; none at all is refused', () => {
    const config = { cases: [{ id: 'a', conditions: [{ variable: '', operator: 'equals', value: 'y' }] }] }
    const withInput = load(conditionFile(config, ['a'], { first: '{{src.v}}' }))
    expect(node(withInput.doc, 'c').data.config).toEqual({
      cases: [
        { id: 'a', match: 'all', rules: [{ value: '{{src.v}}', op: 'equals', to: 'y', ignoreCase: true }] },
      ],
    })
    const without = load(conditionFile(config, ['a']))
    expect(without.keyed.map((k) => k.key)).toEqual(['issues:importNote.patchcat.ruleNoVariable'])
  })

  it('a build without the condition type keeps it a placeholder, as before', () => {
    const { doc, notes } = load(fixture('patchcat-synthetic-router.json'), withoutFlowTypes)
    expect(node(doc, 'gate').type).toBe('unsupported')
    expect(node(doc, 'collect').type).toBe('unsupported')
    expect(doc.edges.filter((e) => e.source === 'gate').map((e) => e.sourceHandle)).toEqual([
      'refund',
      'big',
      'otherwise',
      'nowhere',
    ])
    expect(notes.join('\n')).toContain('maps to "condition", which this build of Wardflow does not include')
  })
})

/** An aggregator fed by nodes of `sources` types, in `config`. */
function aggregatorFile(config: Record<string, unknown>, sources: string[]): Record<string, unknown> {
  return {
    version: '1.0.0',
    nodes: [
      ...sources.map((type, i) => ({ id: `s${i}`, type, position: { x: 0, y: i }, data: {} })),
      { id: 'agg', type: 'aggregator', position: { x: 1, y: 0 }, data: { config } },
      { id: 'out', type: 'output', position: { x: 2, y: 0 }, data: { inputs: { r: '{{agg.output}}' } } },
    ],
    edges: [
      ...sources.map((_, i) => ({ id: `e${i}`, source: `s${i}`, target: 'agg' })),
      { id: 'last', source: 'agg', target: 'out' },
    ],
  }
}

describe('PatchCat aggregator -> merge', () => {
  it('first_available -> first; outputKey kept, and the field PatchCat took from each input', () => {
    const { doc } = load(
      aggregatorFile({ mode: 'first_available', outputKey: 'picked' }, ['prompt', 'prompt']),
    )
    expect(node(doc, 'agg')).toMatchObject({
      type: 'merge',
      data: { config: { mode: 'first', outputKey: 'picked', outputField: 'text' } },
    })
    // PatchCat's `output` and `result` were the same value as `outputKey`.
    expect(node(doc, 'out').data.config).toMatchObject({ values: { r: '{{agg.picked}}' } })
  })

  it('merge_all -> all with PatchCat’s default key `result`; llm and agent inputs agree on `response`', () => {
    const { doc, keyed } = load(aggregatorFile({ mode: 'merge_all' }, ['llm', 'agent']))
    expect(node(doc, 'agg').data.config).toEqual({
      mode: 'all',
      outputKey: 'result',
      outputField: 'response',
    })
    expect(keyed).toEqual([])
  })

  it('wait_all -> all, with a note on the branches not taken; mixed inputs keep the whole output', () => {
    const { doc, notes, keyed } = load(aggregatorFile({ mode: 'wait_all' }, ['prompt', 'http']))
    expect(node(doc, 'agg').data.config).toEqual({ mode: 'all', outputKey: 'result' })
    expect(keyed.map((k) => k.key)).toEqual([
      'issues:importNote.patchcat.waitAll',
      'issues:importNote.patchcat.mergeMixedInputs',
    ])
    expectWorded(notes, keyed)
  })

  it('an unknown mode keeps a placeholder with a keyed note', () => {
    const { doc, notes, keyed } = load(aggregatorFile({ mode: 'race' }, ['prompt']))
    expect(node(doc, 'agg').type).toBe('unsupported')
    expect(keyed).toEqual([
      {
        text: expect.any(String),
        key: 'issues:importNote.patchcat.unknownMergeMode',
        params: { mode: 'race', node: 'agg' },
      },
    ])
    expectWorded(notes, keyed)
  })
})

describe('PatchCat loop -> loop, sub-workflow -> subflow', () => {
  it('a loop with two steps inside it and a sub-workflow call', () => {
    const { doc, notes, keyed } = load(fixture('patchcat-synthetic-loop-subflow.json'))
    expect(node(doc, 'each')).toMatchObject({
      type: 'loop',
      // 64 is past the loop type's concurrency range (defaults.ts).
      data: { config: { mode: 'forEach', items: '{{list.items}}', concurrency: LOOP_CONCURRENCY_RANGE.max } },
    })
    expect(node(doc, 'each').parentId).toBeUndefined()
    expect(node(doc, 'shape').parentId).toBe('each')
    expect(node(doc, 'tidy').parentId).toBe('each')
    expect(node(doc, 'summarise')).toMatchObject({
      type: 'subflow',
      data: {
        config: { flow: 'wf_summary_v2', inputs: { text: '{{each.output}}', count: '{{each.count}}' } },
      },
    })
    const text = notes.join('\n')
    expect(text).toContain(
      `each: concurrency 64 is outside what Wardflow allows; set to ${LOOP_CONCURRENCY_RANGE.max}.`,
    )
    expect(text).toContain('each: not carried over (no Wardflow equivalent): config.itemTimeoutMs.')
    expect(keyed.map((k) => k.key)).toEqual([
      'issues:importNote.patchcat.valueFitted',
      'issues:importNote.patchcat.subflowMissing',
    ])
    expectWorded(notes, keyed)
  })

  it('a loop with no list and no steps inside it says what to add', () => {
    const file = {
      version: '1',
      nodes: [
        { id: 'l', type: 'loop', position: { x: 0, y: 0 }, data: { config: {} } },
        { id: 's', type: 'sub_workflow', position: { x: 1, y: 0 }, data: { config: {} } },
        { id: 'p', type: 'prompt', parentId: 's', position: { x: 1, y: 0 }, data: {} },
      ],
      edges: [],
    }
    const { doc, notes, keyed } = load(file)
    expect(node(doc, 'l').data.config).toEqual({ mode: 'forEach', items: '' })
    expect(node(doc, 's').data.config).toEqual({ flow: '', inputs: {} })
    expect(node(doc, 'p').parentId).toBeUndefined()
    expect(keyed.map((k) => k.key)).toEqual([
      'issues:importNote.patchcat.loopNoItems',
      'issues:importNote.patchcat.subflowNoTarget',
      'issues:importNote.patchcat.notInLoop',
      'issues:importNote.patchcat.loopNoBody',
    ])
    expect(notes.join('\n')).toContain('p: it sat inside "s", which is not a loop here')
    expectWorded(notes, keyed)
  })
})

describe('the import report words these notes in the UI’s language', () => {
  beforeAll(async () => {
    await initI18n('en')
  })
  afterAll(async () => {
    await changeLanguage('en')
  })
  const t = (key: string, values?: Record<string, string | number>): string => i18next.t(key, values)
  const imports = [
    load(fixture('patchcat-synthetic-router.json')),
    load(fixture('patchcat-synthetic-loop-subflow.json')),
    load(aggregatorFile({ mode: 'wait_all' }, ['prompt', 'http'])),
    load(conditionFile({ cases: [{ id: 'a', conditions: [{ variable: 'v', operator: 'in' }] }] }, ['a'])),
  ]

  it('in zh-CN each keyed note is Chinese and names its node', async () => {
    await changeLanguage('zh-CN')
    const keyed = imports.flatMap((i) => i.keyed)
    expect(keyed.length).toBe(7)
    for (const note of keyed) {
      const shown = noteText({ keyedNotes: keyed }, note.text, t)
      expect(shown).toMatch(/\p{Script=Han}/u)
      expect(shown).toContain(String(note.params?.node ?? note.params?.edge))
    }
  })
})
