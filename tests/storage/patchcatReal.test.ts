/**
 * Real PatchCat files (../shared/fixtures/patchcat/, third-party, never copied into this repo).
 * When that folder is not there, the tests are skipped and say so loudly: a warning on the
 * console and a skipped test whose note (shown by the default reporter) names the folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runFlow, type Clock, type FlowDocument, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry, getNodeDefinition } from '../../src/nodes/registry.ts'
import { createDemoProvider, parseDemoScript } from '../../src/providers/index.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { restoreConfig } from '../../src/storage/restore/index.ts'
import { exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { collect, testContext } from '../support/flowBuilders.ts'
import { importPatchCat } from '../../src/storage/patchcat.ts'
import { withFlowTypes } from './flowStandIns.ts'

const dir = fileURLToPath(new URL('../../../shared/fixtures/patchcat/', import.meta.url))
const present = existsSync(dir)
const files = present
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : []
/** Why the real-file tests did not run, said in the reporter's output and as a warning. */
const MISSING =
  `PatchCat fixtures not found at ${dir} (a folder beside this repository, never copied into it): ` +
  'the real-file import, run and sandbox tests are SKIPPED'
if (!present) {
  console.warn(`[storage] WARNING: ${MISSING}.`)
  // On GitHub Actions the same line becomes a warning annotation on the run's summary.
  if (process.env['GITHUB_ACTIONS'] === 'true')
    console.log(`::warning title=PatchCat fixtures missing::${MISSING}`)
}

describe('real PatchCat fixtures (files outside this repository)', () => {
  it('are present, or every test of this file is skipped with the reason', (context) => {
    // A skip with a note: the default reporter prints it beside the test, so CI shows it.
    if (!present) context.skip(MISSING)
    expect(files.length).toBeGreaterThan(0)
  })
})

const WARDFLOW_TYPES: Record<string, string> = {
  input: 'input',
  prompt: 'template',
  llm: 'llm',
  agent: 'agent',
  code: 'code',
  http: 'http',
  output: 'output',
  condition: 'condition',
  aggregator: 'merge',
  loop: 'loop',
  'sub-workflow': 'subflow',
  knowledge: 'knowledge',
}

interface PatchCatFile {
  nodes: Array<{
    id: string
    type: string
    position: { x: number; y: number }
    data: Record<string, unknown>
  }>
  edges: Array<{ id: string; source: string; target: string }>
}

function load(name: string): { text: string; file: PatchCatFile; doc: FlowDocument; notes: string[] } {
  const text = readFileSync(`${dir}${name}`, 'utf8')
  const result = parseWorkflowText(text)
  if (!result.ok) throw new Error(`${name} was refused: ${JSON.stringify(result.problems)}`)
  expect(result.source).toBe('patchcat')
  return { text, file: JSON.parse(text) as PatchCatFile, doc: result.doc, notes: result.notes }
}

describe.skipIf(!present)('real PatchCat fixtures', () => {
  it.each(files)('%s imports with every node, edge and position', (name) => {
    const { file, doc } = load(name)
    expect(doc.nodes.map((n) => n.id)).toEqual(file.nodes.map((n) => n.id))
    expect(doc.nodes.map((n) => n.position)).toEqual(file.nodes.map((n) => n.position))
    expect(doc.edges.map((e) => [e.id, e.source, e.target])).toEqual(
      file.edges.map((e) => [e.id, e.source, e.target]),
    )
    doc.nodes.forEach((node, i) => {
      const original = file.nodes[i]
      if (original === undefined) throw new Error('node count differs')
      const mapped = WARDFLOW_TYPES[original.type]
      if (mapped !== undefined && getNodeDefinition(mapped) !== undefined) {
        expect(node.type).toBe(mapped)
        const definition = getNodeDefinition(node.type)
        if (definition === undefined) throw new Error(`no ${node.type}`)
        expect(restoreConfig(definition, node.data.config)).toMatchObject({
          ok: true,
          config: node.data.config,
        })
      } else {
        expect(node).toMatchObject({
          type: 'unsupported',
          data: { config: { originalType: original.type, original } },
        })
      }
    })
  })

  it.each(files)('%s: references use Wardflow output names', (name) => {
    const { doc } = load(name)
    const httpIds = new Set(doc.nodes.filter((n) => n.type === 'http').map((n) => n.id))
    for (const node of doc.nodes.filter((n) => n.type !== 'unsupported')) {
      const text = JSON.stringify(node.data.config)
      expect(text).not.toMatch(/\.promptText\b/)
      for (const id of httpIds) expect(text).not.toContain(`{{${id}.data`)
    }
    const templates = doc.nodes.filter((n) => n.type === 'template').map((n) => n.id)
    const all = JSON.stringify(doc.nodes.filter((n) => n.type !== 'unsupported'))
    for (const id of templates) if (all.includes(`{{${id}.`)) expect(all).toContain(`{{${id}.text}}`)
  })

  it.each(files)('%s: export then import gives back the same flow', (name) => {
    const { doc } = load(name)
    expect(parseWorkflowText(exportWorkflowText(doc))).toEqual({
      ok: true,
      doc,
      subflows: [],
      source: 'wardflow',
      notes: [],
    })
  })

  it('keeps the condition branches: case ids stay on the edges, `default` becomes `else` once conditions exist', () => {
    const name = files.find((f) => f.includes('conditional'))
    if (name === undefined) return
    const { doc } = load(name)
    const converted = getNodeDefinition('condition') !== undefined
    expect(doc.edges.filter((e) => e.source === 'cond_router').map((e) => e.sourceHandle)).toEqual([
      'case_tech',
      'case_billing',
      converted ? 'else' : 'default',
    ])
  })
})

const ROUTING = 'en-conditional-customer-routing.json'

describe.skipIf(!files.includes(ROUTING))('the real PatchCat router with the control-flow types', () => {
  // Stand-ins for condition and merge (tests/storage/flowStandIns.ts): the shapes are the contract's.
  // Read inside the tests: a skipped suite's body still runs, and the file may be absent.
  function routing() {
    const file = JSON.parse(readFileSync(`${dir}${ROUTING}`, 'utf8')) as Record<string, unknown>
    const result = importPatchCat(file, withFlowTypes)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    return { result, byId: new Map(result.doc.nodes.map((n) => [n.id, n])) }
  }

  it('its condition becomes cases on the ticket category, compared the way PatchCat did', () => {
    const { result, byId } = routing()
    expect(byId.get('cond_router')).toMatchObject({
      type: 'condition',
      data: {
        label: 'Category Router',
        config: {
          cases: [
            {
              id: 'case_tech',
              label: 'Technical',
              match: 'all',
              rules: [
                { value: '{{input_ticket.category}}', op: 'equals', to: 'technical', ignoreCase: true },
              ],
            },
            {
              id: 'case_billing',
              label: 'Billing',
              match: 'all',
              rules: [{ value: '{{input_ticket.category}}', op: 'equals', to: 'billing', ignoreCase: true }],
            },
          ],
        },
      },
    })
    expect(result.doc.edges.map((e) => [e.id, e.sourceHandle ?? null])).toEqual([
      ['e1', null],
      ['e2', 'case_tech'],
      ['e3', 'case_billing'],
      ['e4', 'else'],
      ['e5', null],
      ['e6', null],
      ['e7', null],
      ['e8', null],
    ])
    expect(result.notes.join('\n')).toContain(
      'cond_router: not carried over (no Wardflow equivalent): config.defaultBranchLabel.',
    )
  })

  it('its aggregator becomes a first merge whose outputKey the output node still reads', () => {
    const { byId } = routing()
    expect(byId.get('aggregator_response')?.data.config).toEqual({
      mode: 'first',
      outputKey: 'selected_prompt',
      outputField: 'text',
    })
    expect(byId.get('output_result')?.data.config).toMatchObject({
      values: { result: '{{aggregator_response.selected_prompt}}' },
    })
  })
})

describe.skipIf(
  !files.includes(ROUTING) ||
    getNodeDefinition('condition') === undefined ||
    getNodeDefinition('merge') === undefined,
)('the real PatchCat router runs the branch its input implies', () => {
  it.each([
    ['technical', 'prompt_tech', 'senior DevOps'],
    ['BILLING', 'prompt_billing', 'billing specialist'],
    ['shipping', 'prompt_general', 'concierge'],
  ])('category %s runs %s only', async (category, taken, words) => {
    const { doc } = load(ROUTING)
    const nodes = doc.nodes.map((n) =>
      n.id === 'input_ticket'
        ? {
            ...n,
            data: {
              ...n.data,
              config: { ...n.data.config, values: { ...(n.data.config.values as object), category } },
            },
          }
        : n,
    )
    const { ctx } = testContext()
    const events: RunEvent[] = await collect(runFlow({ ...doc, nodes }, engineRegistry, ctx))
    expect(events.filter((e) => e.type === 'nodeError')).toEqual([])
    expect(events.find((e) => e.type === 'runFinish')).toMatchObject({ status: 'success' })
    const prompts = ['prompt_tech', 'prompt_billing', 'prompt_general']
    const skipped = events.flatMap((e) => (e.type === 'nodeSkipped' ? [[e.nodeId, e.reason]] : []))
    // Both sides sorted: the order of nodeSkipped events is not what this test is about.
    expect(skipped.sort()).toEqual(
      prompts
        .filter((p) => p !== taken)
        .sort()
        .map((p) => [p, 'notTaken']),
    )
    const output = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'output_result')
    if (output?.type !== 'nodeFinish') throw new Error('the output did not finish')
    expect(String(output.output.result)).toContain(words)
    expect(String(output.output.result)).toContain('database connection drops')
  })
})

/** Time that never waits: the demo provider's streaming pauses pass instantly. */
const instantClock: Clock = { now: () => Date.now(), sleep: async () => undefined }

describe.skipIf(!present)('real PatchCat fixtures run end to end with the demo provider', () => {
  const runnable = files.filter((name) => {
    const file = JSON.parse(readFileSync(`${dir}${name}`, 'utf8')) as PatchCatFile
    return file.nodes.every((n) => ['input', 'prompt', 'llm', 'http', 'output'].includes(n.type))
  })

  it.each(runnable)('%s runs to success', async (name) => {
    const { doc } = load(name)
    const weather = JSON.stringify({ current_weather: { temperature: 18.5, weathercode: 1 } })
    const fetches: string[] = []
    const { ctx } = testContext({
      provider: { resolve: async () => createDemoProvider({ clock: instantClock }) },
    })
    const events: RunEvent[] = await collect(
      runFlow(doc, engineRegistry, {
        ...ctx,
        clock: instantClock,
        fetch: async (url) => {
          fetches.push(url)
          return new Response(weather, { status: 200, headers: { 'content-type': 'application/json' } })
        },
      }),
    )
    const finish = events.find((e) => e.type === 'runFinish')
    expect(events.filter((e) => e.type === 'nodeError')).toEqual([])
    expect(finish).toMatchObject({ status: 'success' })
    const finished = events.filter((e) => e.type === 'nodeFinish').map((e) => e.nodeId)
    expect(finished.sort()).toEqual(doc.nodes.map((n) => n.id).sort())
    if (doc.nodes.some((n) => n.type === 'http'))
      expect(fetches[0]).toMatch(/latitude=35\.6762&longitude=139\.6503/)
  })
})

describe.skipIf(!present)('real PatchCat agent fixtures run their code tools in the sandbox', () => {
  const agentFiles = files.filter((name) => name.includes('agent-tool-calling'))
  const runner = createNodeCodeRunner()
  afterAll(() => runner.dispose())
  // The model's side is scripted; the tools are the PatchCat implementations, run for real (real
  // clock: the tool watchdogs must not fire early).
  const script = parseDemoScript({
    format: 'wardflow.demo-script',
    version: 1,
    replies: [
      {
        text: 'Looking up the rate.',
        toolCalls: [{ name: 'get_exchange_rate', arguments: '{"from":"USD","to":"CNY"}' }],
      },
      {
        text: 'Computing.',
        toolCalls: [{ name: 'calculate', arguments: '{"expression":"450 * 7.25 * 0.97"}' }],
      },
      { text: 'You receive 3164.63 CNY.' },
    ],
    then: 'stop',
  })

  it.skipIf(getNodeDefinition('agent') === undefined).each(agentFiles)(
    '%s: the agent calls both tools and answers',
    async (name) => {
      const { doc } = load(name)
      const { ctx } = testContext({
        provider: { resolve: async () => createDemoProvider({ clock: instantClock, script }) },
      })
      const events: RunEvent[] = await collect(
        runFlow(doc, engineRegistry, { ...ctx, clock: systemClock, codeRunner: runner }),
      )
      expect(events.filter((e) => e.type === 'nodeError')).toEqual([])
      const agent = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'agent_solver')
      if (agent?.type !== 'nodeFinish') throw new Error('the agent did not finish')
      expect(agent.output.response).toBe('You receive 3164.63 CNY.')
      const calls = JSON.stringify(agent.output.toolCalls)
      expect(calls).toContain('7.25')
      expect(calls).toContain('3164.625')
      const output = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'output_result')
      expect(output).toMatchObject({ output: { final_answer: 'You receive 3164.63 CNY.' } })
    },
    60_000,
  )
})

describe('the PatchCat RAG template', () => {
  it.skipIf(!files.includes('en-rag-agentic-auditor.json'))(
    'imports its knowledge node naming its base, and says the base must be added',
    () => {
      const { doc, notes } = load('en-rag-agentic-auditor.json')
      const node = doc.nodes.find((n) => n.id === 'node_knowledge')
      expect(node).toMatchObject({
        type: 'knowledge',
        data: {
          config: {
            base: 'kb_patchcat_arch',
            query: '{{node_input.client_requirement}}',
            topK: 4,
            minScore: 0.25,
          },
        },
      })
      expect(notes.join('\n')).toContain(
        'node_knowledge: searches knowledge base "kb_patchcat_arch (PatchCat Architecture Whitepaper)", whose documents a file never carries: before running, add a base with the id "kb_patchcat_arch" on the Knowledge screen (CLI: --knowledge kb_patchcat_arch=<folder or file>).',
      )
    },
  )
})
