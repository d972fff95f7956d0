import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { NodeDefinition } from '../../src/nodes/types.ts'
import { importPatchCat, looksLikePatchCat } from '../../src/storage/patchcat.ts'
import { exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { runFlow } from '../../src/engine/run.ts'
import { engineRegistry, getNodeDefinition } from '../../src/nodes/registry.ts'
import { createDemoProvider } from '../../src/providers/index.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { collect, testContext } from '../support/flowBuilders.ts'
import type { NodeLookup } from '../../src/storage/restore/index.ts'
import { config } from './support.ts'

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/workflows/${name}`, import.meta.url), 'utf8')
}

/** The registry without an agent type, so these tests do not depend on when the agent lands. */
const noAgent: NodeLookup = (type) => (type === 'agent' ? undefined : getNodeDefinition(type))

/** A stand-in agent definition: the mapping is what is under test, not the agent's own schema. */
const fakeAgent: NodeDefinition = {
  ...(getNodeDefinition('llm') as NodeDefinition),
  type: 'agent',
  configVersion: 1,
  schema: z.looseObject({
    configVersion: z.literal(1).default(1),
    prompt: z.string(),
    tools: z.array(z.looseObject({ name: z.string(), kind: z.enum(['code', 'http', 'node']) })),
  }),
}
const withAgent: NodeLookup = (type) => (type === 'agent' ? fakeAgent : getNodeDefinition(type))

describe('PatchCat detection', () => {
  it('recognises both envelopes and nothing else', () => {
    expect(looksLikePatchCat({ version: '1.0.0', metadata: {}, nodes: [] })).toBe(true)
    expect(looksLikePatchCat({ id: 'w', name: 'W', nodes: [], edges: [] })).toBe(true)
    expect(looksLikePatchCat({ nodes: [{ type: 'prompt' }] })).toBe(true)
    expect(looksLikePatchCat({ format: 'wardflow.workflow', version: '1', nodes: [] })).toBe(false)
    expect(looksLikePatchCat({ metadata: { id: 'x' }, nodes: [{ type: 'llm', data: { config: {} } }] })).toBe(
      false,
    )
  })
})

describe('PatchCat template envelope', () => {
  it('imports as a runnable flow: inputs become values, prompt becomes template, references renamed', () => {
    const result = parseWorkflowText(fixture('patchcat-template-haiku.json'))
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.source).toBe('patchcat')
    expect(result.doc.metadata).toEqual({
      id: 'tpl-haiku-0001',
      name: 'Haiku maker',
      description: "A PatchCat-style template envelope, written for Wardflow's importer tests.",
      tags: ['Poetry'],
      createdAt: '2026-03-01T00:00:00Z',
      updatedAt: '2026-03-02T00:00:00Z',
    })
    expect(result.doc.viewport).toEqual({ x: 10, y: 20, zoom: 1.25 })
    expect(result.doc.nodes).toEqual([
      {
        id: 'seed',
        type: 'input',
        position: { x: 0, y: 0 },
        data: { label: 'Seed', config: config('input', { values: { season: 'autumn' } }) },
      },
      {
        id: 'shape',
        type: 'template',
        position: { x: 250, y: 0 },
        data: {
          label: 'Shape',
          config: config('template', { template: 'Write a haiku about {{ seed.season }}.' }),
        },
      },
      {
        id: 'poet',
        type: 'llm',
        position: { x: 500, y: 0 },
        data: {
          label: 'Poet',
          config: config('llm', { model: 'demo', temperature: 0.9, prompt: '{{shape.text}}' }),
        },
      },
      {
        id: 'poem',
        type: 'output',
        position: { x: 750, y: 0 },
        data: {
          label: 'Poem',
          config: config('output', { values: { haiku: '{{poet.response}}', asked: '{{shape.text}}' } }),
        },
      },
    ])
    expect(result.doc.edges).toEqual([
      { id: 'e1', source: 'seed', target: 'shape', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'e2', source: 'shape', target: 'poet', sourceHandle: 'out', targetHandle: 'in' },
      { id: 'e3', source: 'poet', target: 'poem', sourceHandle: 'out', targetHandle: 'in' },
    ])
    const notes = result.notes.join('\n')
    expect(notes).toContain('metadata.author ("Wardflow tests")')
    expect(notes).toContain('tags that are not text ([7])')
    expect(notes).toMatch(/References in 2 fields were rewritten/)
  })
})

describe('PatchCat saved workflow', () => {
  const result = importPatchCat(
    JSON.parse(fixture('patchcat-saved-research-desk.json')) as Record<string, unknown>,
    noAgent,
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const { doc } = result
  const node = (id: string) => doc.nodes.find((n) => n.id === id)
  const notes = result.notes.join('\n')

  it('takes metadata from the top level, numbers as times', () => {
    expect(doc.metadata).toMatchObject({
      id: 'wf_research_desk_01',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-03T04:05:06Z',
    })
    expect(doc.viewport).toEqual({ x: 0, y: 0, zoom: 1 })
  })

  it('renames ids Wardflow refuses and rewrites every reference to them', () => {
    expect(node('prompt_brief')?.type).toBe('template')
    expect(node('writer')?.data.config.prompt).toBe(
      '{{prompt_brief.text}}\nSources: {{search_api.body.items[0].title | "none"}}',
    )
    expect(node('report')?.data.config.values).toEqual({
      notes: '{{writer.response}}',
      brief: '{{prompt_brief.text}}',
      raw: '{{search_api.body}}',
      status: '{{search_api.status}}',
      checked: '{{assistant.response}}',
    })
    expect(doc.edges.find((e) => e.id === 'a')).toEqual({
      id: 'a',
      source: 'topic',
      target: 'prompt_brief',
      sourceHandle: 'out',
      targetHandle: 'in',
    })
  })

  it('maps input values to text with usable keys', () => {
    expect(node('topic')?.data.config.values).toEqual({
      subject: 'tidal energy',
      max_results: '5',
      api_key: 'pc-test-not-a-real-key-123',
    })
  })

  it('maps http: record query and headers, JSON body, timeout and retries fitted into range', () => {
    expect(node('search_api')?.data.config).toEqual(
      config('http', {
        method: 'POST',
        url: 'https://search.example.test/v1/query',
        headers: [
          { key: 'Content-Type', value: 'application/json' },
          { key: 'Authorization', value: 'Bearer {{topic.api_key}}' },
        ],
        query: [
          { key: 'q', value: '{{topic.subject}}' },
          { key: 'limit', value: '5' },
        ],
        body: '{\n  "query": "{{topic.subject}}",\n  "lang": "en"\n}',
        timeoutMs: 1000,
        retries: 5,
      }),
    )
    expect(notes).toContain('search_api: timeout 500 is outside 1000-300000; set to 1000.')
    expect(notes).toContain('search_api: retry.maxRetries 9 is outside 0-5; set to 5.')
  })

  it('maps llm and JavaScript code; Python code and unknown types become placeholders keeping their JSON', () => {
    expect(node('writer')?.data.config).toMatchObject({
      model: 'gpt-4o-mini',
      systemPrompt: 'You write crisp research notes.',
      temperature: 2,
      maxTokens: 900,
      provider: '',
    })
    expect(node('ranker')?.data.config).toEqual(
      config('code', { code: 'return (inputs.search_api.body.items || []).slice(0, 3)', timeoutMs: 3000 }),
    )
    const file = JSON.parse(fixture('patchcat-saved-research-desk.json')) as { nodes: Array<{ id: string }> }
    for (const [id, originalType] of [
      ['py_clean', 'code'],
      ['assistant', 'agent'],
    ] as const) {
      expect(node(id)).toMatchObject({
        type: 'unsupported',
        data: { config: { originalType, original: file.nodes.find((n) => n.id === id) } },
      })
    }
    // PatchCat's loop is Wardflow's loop now (a forEach with an empty body).
    expect(node('retry_loop')).toMatchObject({ type: 'loop', position: { x: 780, y: 400 } })
  })

  it('keeps handles that carry meaning, and says what it left out', () => {
    expect(doc.edges.find((e) => e.id === 'h')).toEqual({
      id: 'h',
      source: 'py_clean',
      target: 'retry_loop',
      sourceHandle: 'result',
    })
    expect(doc.edges.find((e) => e.id === 'd')).toEqual({ id: 'd', source: 'search_api', target: 'writer' })
    expect(doc.edges.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])
    for (const mention of [
      'variables',
      'config.topP',
      'config.format',
      'retry.retryInterval',
      'inputs q not needed',
      'provider "openai-main"',
      'temperature 2.5 is outside',
      'Node descriptions are not carried over',
      'edges[3].sourceHandle "success"',
      'edges[10] ("k")',
      'edges[11] ("l") connects report to itself',
      'animated (1 edge), label (1 edge)',
      'python',
    ]) {
      expect(notes).toContain(mention)
    }
  })

  it('maps agent tools: builtin_code -> code, builtin_http -> http, canvas_node -> node; unknown tools are named', () => {
    const withAgentResult = importPatchCat(
      JSON.parse(fixture('patchcat-saved-research-desk.json')) as Record<string, unknown>,
      withAgent,
    )
    if (!withAgentResult.ok) throw new Error('refused')
    const agent = withAgentResult.doc.nodes.find((n) => n.id === 'assistant')
    expect(agent?.type).toBe('agent')
    expect(agent?.data.config).toMatchObject({
      prompt: 'Check: {{writer.response}}',
      systemPrompt: 'Verify every claim.',
      model: 'gpt-4o',
      maxIterations: 50,
    })
    expect(agent?.data.config.tools).toEqual([
      {
        name: 'word_count',
        description: 'Counts words',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        kind: 'code',
        code: 'return { words: String(inputs.text).split(/\\s+/).length }',
      },
      {
        name: 'lookup',
        description: 'Looks a claim up',
        parameters: { type: 'object', properties: { claim: { type: 'string' } } },
        kind: 'http',
        url: 'https://facts.example.test/check',
        method: 'POST',
        headers: [{ key: 'X-Client', value: 'wardflow-tests' }],
      },
      {
        name: 'rank_sources',
        description: 'Runs the ranking node',
        parameters: { type: 'object', properties: {} },
        kind: 'node',
        nodeId: 'ranker',
      },
    ])
    const agentNotes = withAgentResult.notes.join('\n')
    expect(agentNotes).toContain('tool "word count" renamed to "word_count"')
    expect(agentNotes).toMatch(/tool "remote" has type "mcp_server".*left out/)
  })
})

describe('PatchCat files that cannot make a flow are refused with paths', () => {
  it('a cycle', () => {
    expect(parseWorkflowText(fixture('patchcat-cyclic.json'))).toEqual({
      ok: false,
      problems: [
        {
          path: 'edges[1]',
          message: 'The flow has a cycle: a -> b -> a. A flow must not loop back on itself.',
          key: 'issues:importProblem.cycle',
          params: { nodes: 'a -> b -> a' },
        },
      ],
    })
  })

  it('nodes without ids or types, and edges that are not a list', () => {
    const result = importPatchCat({ version: '1', nodes: [{ type: 'input' }, 'x', { id: 'b' }], edges: {} })
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: 'nodes[0].id', message: expect.any(String), key: 'issues:importProblem.patchcat.nodeId' },
        { path: 'nodes[1]', message: expect.any(String), key: 'issues:importProblem.patchcat.nodeNotObject' },
        { path: 'nodes[2].type', message: expect.any(String), key: 'issues:importProblem.patchcat.nodeType' },
        { path: 'edges', message: expect.any(String), key: 'issues:importProblem.patchcat.edgesList' },
      ],
    })
  })
})

describe('PatchCat code inputs, http auth and body, agent settings', () => {
  const text = fixture('patchcat-saved-code-and-auth.json')

  it('maps script + data.inputs, basic auth, JSON body, retryConfig and the agent protection settings', () => {
    const result = parseWorkflowText(text)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const node = (id: string) => result.doc.nodes.find((n) => n.id === id)
    expect(String(node('shout')?.data.config.code)).toMatch(
      /^const __text = .*; inputs = \{ "text": inputs\["in"\]\?\.\["msg"\], .*\}; return \{ loud/,
    )
    expect(node('post')?.data.config).toMatchObject({
      headers: [
        { key: 'X-Trace', value: 'abc' },
        { key: 'Content-Type', value: 'application/json' },
        { key: 'Authorization', value: `Basic ${btoa('ada:lovelace')}` },
      ],
      body: '{ "text": "{{shout.result.loud}}" }',
      retries: 1,
    })
    expect(node('helper')?.data.config).toMatchObject({
      prompt: 'Summarise {{shout.result}} and {{shout.logs}}',
      maxTokenBudget: 5000,
      loopDetectionEnabled: false,
      loopDetectionThreshold: 4,
      tools: [{ name: 'notify', kind: 'http', url: 'https://hooks.example.test/notify', method: 'POST' }],
    })
    const notes = result.notes.join('\n')
    expect(notes).toContain('shout: its inputs (text, line, count) are rebuilt')
    expect(notes).toContain('config.activeSnippet')
    expect(notes).toContain('authentication "basic" became a request header')
    expect(notes).toContain('retryConfig.retryDelayMs not kept')
    expect(notes).toMatch(/"shape_only" has type "custom_schema".*left out/)
    // The credential that came in with the file never goes back out.
    expect(exportWorkflowText(result.doc)).not.toContain(btoa('ada:lovelace'))
  })

  it('the rebuilt inputs give the code what PatchCat gave it, in the real sandbox', async () => {
    const result = parseWorkflowText(text)
    if (!result.ok) throw new Error('refused')
    const runner = createNodeCodeRunner()
    try {
      const { ctx } = testContext({
        provider: { resolve: async () => createDemoProvider({ clock: systemClock }) },
      })
      const fetch = async (): Promise<Response> =>
        new Response('{}', { headers: { 'content-type': 'application/json' } })
      const events = await collect(
        runFlow(result.doc, engineRegistry, { ...ctx, clock: systemClock, codeRunner: runner, fetch }),
      )
      expect(events.filter((e) => e.type === 'nodeError')).toEqual([])
      const out = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'out')
      expect(out).toMatchObject({ output: { loud: 'HELLO', line: '<hello> x3 none' } })
      const shout = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'shout')
      expect(shout).toMatchObject({ output: { result: { loud: 'HELLO', times: 3 } } })
    } finally {
      runner.dispose()
    }
  }, 60_000)
})
