import { describe, expect, it } from 'vitest'
import { FLOW_MAX_NODES, IMPORT_MAX_FILE_BYTES, IMPORT_MAX_PROBLEMS } from '../../src/defaults.ts'
import {
  asNewFlow,
  exportWorkflow,
  exportWorkflowText,
  parseWorkflowText,
  workflowFileName,
} from '../../src/storage/workflowFile.ts'
import { config, richFlow, sampleFlow } from './support.ts'

function problemsOf(text: string): Array<{ path: string; message: string }> {
  const result = parseWorkflowText(text)
  if (result.ok) throw new Error('expected the file to be refused')
  // The catalogue keys beside each message have their own test (workflow problems in any language).
  return result.problems.map(({ path, message }) => ({ path, message }))
}

function fileWith(
  mutate: (
    file: Record<string, unknown> & {
      nodes: Array<Record<string, unknown>>
      edges: Array<Record<string, unknown>>
    },
  ) => void,
): string {
  const file = JSON.parse(exportWorkflowText(richFlow())) as Parameters<typeof mutate>[0]
  mutate(file)
  return JSON.stringify(file)
}

describe('workflow export', () => {
  it('writes the wardflow.workflow v2 envelope as pretty JSON', () => {
    const text = exportWorkflowText(sampleFlow())
    expect(text.startsWith('{\n  "format": "wardflow.workflow",\n  "version": 2,')).toBe(true)
    const file = JSON.parse(text) as Record<string, unknown>
    expect(Object.keys(file)).toEqual(['format', 'version', 'metadata', 'viewport', 'nodes', 'edges'])
  })

  it('round-trips to the same flow', () => {
    const doc = richFlow()
    const result = parseWorkflowText(exportWorkflowText(doc))
    expect(result).toEqual({ ok: true, doc, subflows: [], source: 'wardflow', notes: [] })
  })

  it("keeps the flow's own run budget (metadata.limits) through an export and an import", () => {
    const doc = richFlow()
    doc.metadata.limits = { maxRunTokens: 4000, maxRunCostUsd: 0 }
    const result = parseWorkflowText(exportWorkflowText(doc))
    expect(result).toMatchObject({
      ok: true,
      doc: { metadata: { limits: { maxRunTokens: 4000, maxRunCostUsd: 0 } } },
    })
  })

  it('never writes a secret: credential fields, auth headers and key shapes are emptied and listed', () => {
    const doc = richFlow()
    const web = doc.nodes.find((n) => n.id === 'web')
    if (!web) throw new Error('no web node')
    web.data.config.headers = [
      { key: 'Authorization', value: 'Bearer sk-proj-abcdefghijklmnop1234' },
      { key: 'X-Trace', value: 'trace-1' },
      { key: 'x-api-key', value: '{{in.key}}' },
    ]
    web.data.config.url = 'https://example.test/w?api_key=hunter2hunter2&city={{in.city}}'
    web.data.config.apiKey = 'plain-key-value'
    const tpl = doc.nodes.find((n) => n.id === 'tpl')
    if (tpl) tpl.data.config.template = 'Use ghp_abcdefghij0123456789 and the bearer of good news'
    const { text, redacted } = exportWorkflow(doc)
    for (const secret of [
      'sk-proj-abcdefghijklmnop1234',
      'hunter2hunter2',
      'plain-key-value',
      'ghp_abcdefghij0123456789',
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(text).toContain('{{in.key}}')
    expect(text).toContain('trace-1')
    expect(text).toContain('the bearer of good news')
    expect(text).toContain('city={{in.city}}')
    expect(redacted.sort()).toEqual([
      'nodes[1].data.config.template',
      'nodes[2].data.config.apiKey',
      'nodes[2].data.config.headers[0].value',
      'nodes[2].data.config.url',
    ])
  })

  it('makes safe file names and fresh copies', () => {
    expect(workflowFileName('My flow: v2/final?')).toBe('My flow- v2-final-.wardflow.json')
    expect(workflowFileName('   ')).toBe('workflow.wardflow.json')
    expect(workflowFileName('..')).toBe('workflow.wardflow.json')
    const doc = sampleFlow()
    const copy = asNewFlow(doc, 'new_id', '2027-01-01T00:00:00.000Z')
    expect(copy.metadata).toEqual({
      ...doc.metadata,
      id: 'new_id',
      createdAt: '2027-01-01T00:00:00.000Z',
      updatedAt: '2027-01-01T00:00:00.000Z',
    })
    expect(copy.nodes).toEqual(doc.nodes)
    expect(copy.nodes).not.toBe(doc.nodes)
  })
})

describe('workflow import refuses bad files with a path per problem', () => {
  it('invalid JSON, with the line and column', () => {
    const [problem] = problemsOf('{\n  "format": "wardflow.workflow",\n  "version": 1,,\n}')
    expect(problem?.path).toBe('')
    expect(problem?.message).toMatch(/not valid JSON at line 3, column \d+/)
    expect(problemsOf('{"format": "wardflow.work')[0]?.message).toMatch(/not valid JSON/)
  })

  it('empty, oversized, too deep and non-object files', () => {
    expect(problemsOf('  \n')[0]?.message).toMatch(/empty/)
    expect(problemsOf(' '.repeat(IMPORT_MAX_FILE_BYTES + 1))[0]?.message).toMatch(/limit is 20\.0 MB/)
    expect(problemsOf('['.repeat(5000) + ']'.repeat(5000))[0]?.message).toMatch(/nests deeper/)
    expect(problemsOf('[1,2]')[0]?.message).toMatch(/not an object/)
    expect(problemsOf('{"hello": 1}')).toEqual([
      { path: 'format', message: expect.stringMatching(/not a workflow file/) },
    ])
  })

  it('wrong format and versions', () => {
    expect(problemsOf(fileWith((f) => (f.format = 'wardflow.settings')))).toEqual([
      { path: 'format', message: expect.stringMatching(/settings file/) },
    ])
    expect(problemsOf(fileWith((f) => (f.version = 3)))).toEqual([
      { path: 'version', message: expect.stringMatching(/newer Wardflow/) },
    ])
    expect(problemsOf(fileWith((f) => (f.version = '1')))).toEqual([
      { path: 'version', message: expect.stringMatching(/Expected version 2/) },
    ])
  })

  it('envelope fields', () => {
    // Absent metadata is filled in (tests/storage/omitted.test.ts); metadata of the wrong type is not.
    expect(problemsOf(fileWith((f) => (f.metadata = 'flow' as never)))[0]?.path).toBe('metadata')
    expect(problemsOf(fileWith((f) => ((f.metadata as Record<string, unknown>).id = '')))[0]?.path).toBe(
      'metadata.id',
    )
    expect(problemsOf(fileWith((f) => ((f.metadata as Record<string, unknown>).tags = 'x')))[0]?.path).toBe(
      'metadata.tags',
    )
    expect(problemsOf(fileWith((f) => (f.viewport = { x: 0, y: 0, zoom: 0 })))[0]?.path).toBe('viewport.zoom')
    expect(problemsOf(fileWith((f) => (f.nodes = {} as never)))[0]?.path).toBe('nodes')
    expect(problemsOf(fileWith((f) => (f.edges = 'none' as never)))[0]?.path).toBe('edges')
  })

  it('node structure', () => {
    expect(
      problemsOf(fileWith((f) => (f.nodes[1] = { ...f.nodes[1], position: null as never })))[0]?.path,
    ).toBe('nodes[1].position')
    expect(
      problemsOf(fileWith((f) => (f.nodes[0] = { ...f.nodes[0], position: { x: 'left', y: 0 } })))[0]?.path,
    ).toBe('nodes[0].position.x')
    expect(problemsOf(fileWith((f) => (f.nodes[0] = { ...f.nodes[0], type: '' })))[0]?.path).toBe(
      'nodes[0].type',
    )
    expect(problemsOf(fileWith((f) => (f.nodes[3] = 'node' as never)))[0]?.path).toBe('nodes[3]')
    expect(
      problemsOf(fileWith((f) => (f.nodes[0] = { ...f.nodes[0], data: { label: 'x', config: [] } })))[0]
        ?.path,
    ).toBe('nodes[0].data.config')
  })

  it('node ids: pattern and uniqueness', () => {
    const bad = problemsOf(fileWith((f) => (f.nodes[6] = { ...f.nodes[6], id: 'has space' })))
    expect(bad.map((p) => p.path)).toContain('nodes[6].id')
    const dup = problemsOf(fileWith((f) => (f.nodes[7] = { ...f.nodes[7], id: 'in' })))
    expect(dup).toEqual([{ path: 'nodes[7].id', message: 'Node id "in" is used twice (first at nodes[0]).' }])
  })

  it('node configs, validated by the type schema', () => {
    const temperature = problemsOf(
      fileWith((f) => ((f.nodes[4]?.data as { config: Record<string, unknown> }).config.temperature = 7)),
    )
    expect(temperature).toEqual([{ path: 'nodes[4].data.config.temperature', message: expect.any(String) }])
    const query = problemsOf(
      fileWith(
        (f) => ((f.nodes[2]?.data as { config: Record<string, unknown> }).config.query = [{ key: 1 }]),
      ),
    )
    expect(query.map((p) => p.path)).toContain('nodes[2].data.config.query[0].key')
    const newer = problemsOf(
      fileWith((f) => ((f.nodes[1]?.data as { config: Record<string, unknown> }).config.configVersion = 9)),
    )
    expect(newer).toEqual([
      { path: 'nodes[1].data.config.configVersion', message: expect.stringMatching(/newer Wardflow/) },
    ])
  })

  it('edges: ids, ends, self-loops and cycles', () => {
    expect(problemsOf(fileWith((f) => (f.edges[0] = { ...f.edges[0], id: '' } as never)))[0]?.path).toBe(
      'edges[0].id',
    )
    expect(problemsOf(fileWith((f) => (f.edges[1] = { ...f.edges[1], id: f.edges[0]?.id })))[0]?.path).toBe(
      'edges[1].id',
    )
    expect(problemsOf(fileWith((f) => (f.edges[0] = { ...f.edges[0], target: 'ghost' })))).toEqual([
      { path: 'edges[0].target', message: 'Edge "e_in_tpl" ends at node "ghost", which is not in the file.' },
    ])
    expect(problemsOf(fileWith((f) => (f.edges[0] = { ...f.edges[0], target: 'in' })))).toEqual([
      { path: 'edges[0]', message: expect.stringMatching(/to itself/) },
    ])
    const cycle = problemsOf(fileWith((f) => f.edges.push({ id: 'back', source: 'out', target: 'in' })))
    expect(cycle).toEqual([
      {
        path: expect.stringMatching(/^edges\[\d+\]$/),
        message: expect.stringMatching(/cycle: .*in -> .*in/),
      },
    ])
  })

  it('too many nodes, and lists at most IMPORT_MAX_PROBLEMS problems', () => {
    const many = {
      format: 'wardflow.workflow',
      version: 1,
      metadata: { id: 'm', name: 'm' },
      nodes: new Array(FLOW_MAX_NODES + 1).fill(0),
      edges: [],
    }
    expect(problemsOf(JSON.stringify(many))).toEqual([
      { path: 'nodes', message: expect.stringMatching(/at most/) },
    ])
    const broken = {
      ...many,
      nodes: new Array(IMPORT_MAX_PROBLEMS + 10).fill(0).map((_, i) => ({ id: `n${i}` })),
    }
    const problems = problemsOf(JSON.stringify(broken))
    expect(problems).toHaveLength(IMPORT_MAX_PROBLEMS + 1)
    expect(problems.at(-1)?.message).toMatch(/more problems/)
  })
})

describe('workflow import accepts', () => {
  it('unknown node types as placeholders keeping their JSON and position', () => {
    const text = fileWith((f) =>
      f.nodes.push({
        id: 'loop_1',
        type: 'repeat',
        position: { x: 7, y: 8 },
        data: { label: 'Loop', config: { times: 3 } },
      }),
    )
    const result = parseWorkflowText(text)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.doc.nodes.at(-1)).toEqual({
      id: 'loop_1',
      type: 'unsupported',
      position: { x: 7, y: 8 },
      data: {
        label: 'Loop',
        config: {
          configVersion: 1,
          originalType: 'repeat',
          original: {
            id: 'loop_1',
            type: 'repeat',
            position: { x: 7, y: 8 },
            data: { label: 'Loop', config: { times: 3 } },
          },
        },
      },
    })
    expect(result.notes).toEqual([expect.stringMatching(/"repeat".*placeholder/)])
  })

  it('a BOM, a bare flow document, and fills config defaults', () => {
    const doc = sampleFlow()
    expect(parseWorkflowText(`\uFEFF${exportWorkflowText(doc)}`)).toMatchObject({ ok: true, doc })
    const bare = parseWorkflowText(JSON.stringify(doc))
    expect(bare).toMatchObject({ ok: true, doc, notes: [expect.stringMatching(/no "format"/)] })
    const minimal = fileWith((f) => {
      f.nodes = [{ id: 'a', type: 'llm', position: { x: 0, y: 0 }, data: { label: 'A', config: {} } }]
      f.edges = []
    })
    const result = parseWorkflowText(minimal)
    expect(result).toMatchObject({ ok: true })
    if (result.ok) expect(result.doc.nodes[0]?.data.config).toEqual(config('llm'))
  })
})
