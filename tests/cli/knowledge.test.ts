/** `wardflow run --knowledge <base id>=<folder or file>` through the real CLI (spawned). */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
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
