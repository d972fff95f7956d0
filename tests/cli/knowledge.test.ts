/** `wardflow run --knowledge <base id>=<folder or file>` through the real CLI (spawned). */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { jsonLines, ROOT, wardflow } from '../support/wardflowCli.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { tinyPdf } from '../support/tinyPdf.ts'

const RAG = resolve(ROOT, '../shared/fixtures/patchcat/en-rag-agentic-auditor.json')
if (!existsSync(RAG)) console.warn(`[cli] WARNING: ${RAG} not found: the PatchCat RAG run is SKIPPED.`)
const FLOW = 'tests/fixtures/cli/knowledge.wardflow.json'
const DOCS = 'tests/fixtures/cli/knowledge-docs'

/** A small document set on the PatchCat template's topic (DAG cycles, large canvases), plus pages off it. */
const PATCHCAT_DOCS: Record<string, string> = {
  'architecture/cycle-detection.md': [
    '# DAG cycle detection',
    '',
    'PatchCat detects cycle deadlocks before a workflow runs. The graph configuration is checked with',
    "Kahn's topological sort: every node's in-degree is counted, nodes with in-degree zero are queued,",
    'and each node taken from the queue lowers the in-degree of the nodes it points to. When the queue',
    'empties and some nodes were never taken, those nodes form a cycle: the run is refused and the cycle',
    'is named, so a cyclical graph never deadlocks the cluster. The algorithmic principle is linear,',
    'O(V + E), in the number of nodes and edges.',
  ].join('\n'),
  'performance/large-canvas.md': [
    '# Canvas performance with large node sets',
    '',
    'To prevent UI lag with large node sets, PatchCat renders only the nodes inside the viewport',
    '(virtualised rendering), memoises each node component so a drag re-renders one node, batches',
    'position updates into one animation frame and moves layout work off the main thread. These',
    'optimizations keep the canvas responsive with thousands of nodes.',
  ].join('\n'),
  'architecture/layered-execution.md': [
    '# Layered execution',
    '',
    'After the topological sort, PatchCat groups nodes into layers: every node in a layer depends only on',
    "earlier layers, so a layer's nodes run in parallel and the microservice workflow waits for each",
    'layer before the next.',
  ].join('\n'),
  'handbook/holidays.md':
    '# Holidays\n\nStaff take annual leave by booking it in the calendar two weeks ahead. Public holidays follow the\nlocal calendar of each office.',
  'handbook/expenses.md':
    '# Expenses\n\nReceipts are scanned into the expense tool within thirty days. Travel is booked through the travel desk.',
}

type Hit = { text: string; source: string; score: number }
const resultsOf = (list: RunEvent[]): Hit[] => {
  const finish = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'kb')
  return finish?.type === 'nodeFinish' ? (finish.output.results as Hit[]) : []
}

describe('wardflow run --knowledge', { timeout: 90_000 }, () => {
  let server: MockOpenAiServer
  beforeAll(async () => {
    server = await startMockOpenAiServer()
  })
  afterAll(() => server.close())

  it('searches a folder of Markdown and HTML, citing paths relative to it, exit 0', async () => {
    const result = await wardflow(['run', FLOW, '--knowledge', `kb_help=${DOCS}`, '--json'])
    expect(result.code).toBe(0)
    const hits = resultsOf(jsonLines(result.stdout))
    expect(hits[0]).toMatchObject({ source: 'guides/refunds.md' })
    expect(hits[0]!.text).toContain('paid within 14 days')
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0)
    // HTML is read as text: no tags, no script, entities decoded.
    const all = await wardflow([
      'run',
      FLOW,
      '--knowledge',
      `kb_help=${DOCS}`,
      '--input',
      'question=parcels Rotterdam',
      '--json',
    ])
    const shipping = resultsOf(jsonLines(all.stdout)).find((h) => h.source === 'shipping.html')
    expect(shipping?.text).toContain('Parcels leave Rotterdam every day & reach Europe')
    expect(shipping?.text).not.toContain('<')
    expect(shipping?.text).not.toContain('alert')
    // Files that are not documents are skipped.
    expect(resultsOf(jsonLines(all.stdout)).map((h) => h.source)).not.toContain('notes.bin')
  })

  it('reads a PDF given as a single file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wardflow-kb-'))
    const pdf = join(dir, 'policy.pdf')
    writeFileSync(pdf, tinyPdf(['Refunds are paid within 14 days.', 'Digital goods are not refunded.']))
    const result = await wardflow(['run', FLOW, '--knowledge', `kb_help=${pdf}`, '--json'])
    expect(result.code).toBe(0)
    const hits = resultsOf(jsonLines(result.stdout))
    expect(hits.map((h) => h.source)).toEqual(['policy.pdf'])
    expect(hits[0]!.text).toContain('Refunds are paid within 14 days.')
  })

  it('embeds chunks and the query with --embeddings-model on the --base-url server', async () => {
    const result = await wardflow([
      'run',
      FLOW,
      '--knowledge',
      `kb_help=${DOCS}`,
      '--base-url',
      server.baseUrl,
      '--embeddings-model',
      'mock-embed',
      '--json',
    ])
    expect(result.code).toBe(0)
    expect(resultsOf(jsonLines(result.stdout))[0]?.source).toBe('guides/refunds.md')
    const embeds = server.requests.filter((r) => r.path === '/v1/embeddings')
    expect(embeds.length).toBe(2)
    expect(embeds.map((r) => (r.body as { model: string }).model)).toEqual(['mock-embed', 'mock-embed'])
    expect((embeds[1]!.body as { input: string[] }).input).toEqual(['How many days until a refund is paid?'])
  })

  it.skipIf(!existsSync(RAG))(
    'runs the PatchCat RAG template end to end once its base is given, exit 0',
    async () => {
      const result = await wardflow(['run', RAG, '--knowledge', `kb_patchcat_arch=${DOCS}`, '--json'])
      expect(result.code).toBe(0)
      expect(result.stderr).toContain('add a base with the id "kb_patchcat_arch"')
      const list = jsonLines(result.stdout)
      expect(list.filter((e) => e.type === 'nodeError')).toEqual([])
      const finish = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'node_knowledge')
      const hits = finish?.type === 'nodeFinish' ? (finish.output.results as Hit[]) : []
      expect(hits.length).toBeGreaterThan(0)
      expect(hits.every((h) => h.score >= 0.25)).toBe(true)
      const output = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'node_output')
      expect(JSON.stringify(output)).toContain('[1] ')
    },
  )

  it.skipIf(!existsSync(RAG))(
    'answers the PatchCat RAG question from a document set on its topic: the matching documents, best first, cited in the output',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wardflow-patchcat-kb-'))
      for (const [path, text] of Object.entries(PATCHCAT_DOCS)) {
        mkdirSync(join(dir, path, '..'), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      const result = await wardflow(['run', RAG, '--knowledge', `kb_patchcat_arch=${dir}`, '--json'])
      expect(result.code).toBe(0)
      const list = jsonLines(result.stdout)
      expect(list.filter((e) => e.type === 'nodeError')).toEqual([])
      const finish = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'node_knowledge')
      const hits = finish?.type === 'nodeFinish' ? (finish.output.results as Hit[]) : []
      // The question asks how cycles are detected and how large canvases stay fast: those two
      // documents, in that order; the layered-execution page and the handbook fall under the
      // template's 0.25 threshold.
      expect(hits.map((h) => h.source)).toEqual([
        'architecture/cycle-detection.md',
        'performance/large-canvas.md',
      ])
      expect(hits[0]!.text).toContain("Kahn's topological sort")
      expect(hits[1]!.text).toContain('renders only the nodes inside the viewport')
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
      for (const hit of hits) expect(hit.score).toBeGreaterThanOrEqual(0.25)
      // The citations reach the generator's prompt and the final output, numbered as found.
      const output = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'node_output')
      const sources = output?.type === 'nodeFinish' ? String(output.output.knowledge_sources) : ''
      expect(sources).toMatch(
        /^\[1\] architecture\/cycle-detection\.md \(score 0\.\d\d\)\n# DAG cycle detection/,
      )
      expect(sources).toContain('[2] performance/large-canvas.md (score ')
      expect(sources).not.toContain('layered-execution.md')
      expect(sources).not.toContain('handbook/')
      const prompt = list.find((e) => e.type === 'nodeFinish' && e.nodeId === 'node_prompt_generator')
      expect(prompt?.type === 'nodeFinish' ? String(prompt.output.text) : '').toContain(
        '[1] architecture/cycle-detection.md (score ',
      )
    },
  )

  it('fails the node naming the base and the flag when the base was not given, exit 1', async () => {
    const result = await wardflow(['run', FLOW, '--json'])
    expect(result.code).toBe(1)
    const error = jsonLines(result.stdout).find((e) => e.type === 'nodeError')
    expect(error).toMatchObject({ nodeId: 'kb', code: 'KNOWLEDGE_BASE_MISSING' })
    expect(error?.type === 'nodeError' ? error.message : '').toContain('--knowledge kb_help=<folder or file>')
  })

  it('refuses a folder that does not exist and a malformed flag, exit 2', async () => {
    const missing = await wardflow(['run', FLOW, '--knowledge', 'kb_help=/nowhere/at/all'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('there is no file or folder /nowhere/at/all')
    const malformed = await wardflow(['run', FLOW, '--knowledge', 'kb_help'])
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toContain('--knowledge expects <base id>=<folder or file>')
  })
})
