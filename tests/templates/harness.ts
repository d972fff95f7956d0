/**
 * Runs a bundled template the way the app does, with real parts only: the template file from
 * public/templates, storage's parser, the real engine and node registry, the demo provider of
 * the default settings, the Node QuickJS sandbox, the real clock and tokenizer, and a fetch that
 * serves public/ from disk under a sub-path (as GitHub Pages would).
 */
import { createSchemaValidator } from '../../src/platform/schemaValidator.ts'
import { readFileSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import {
  preflight,
  runFlow,
  type FlowDocument,
  type KnowledgeSearch,
  type RunContext,
  type RunEvent,
} from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { createProviderResolver, loadTokenEstimator } from '../../src/providers/index.ts'
import { createNodeCodeRunner } from '../../src/sandbox/node-runner.ts'
import type { SandboxCodeRunner } from '../../src/sandbox/pool.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { chunkText } from '../../src/knowledge/chunk.ts'
import { demoVector } from '../../src/knowledge/demoVectors.ts'
import { documentKind, documentText } from '../../src/knowledge/extract.ts'
import { createMemoryKnowledge } from '../../src/knowledge/memoryKnowledge.ts'
import { createBaseIndex, type BaseIndex } from '../../src/knowledge/search.ts'

/** The repository's public/ folder (vitest runs from the repository root, in every environment). */
export const PUBLIC_DIR = `${resolve(process.cwd(), 'public')}/`
export const TEMPLATES_DIR = `${PUBLIC_DIR}templates/`
/** Where the tests pretend the site is served from: a sub-path, like GitHub Pages. */
export const SITE_BASE = 'https://wardflow.test/sub/'

export interface IndexEntry {
  id: string
  file: string
  nameKey: string
  descriptionKey: string
  name: string
  description: string
  tags: string[]
  featured?: boolean
  knowledge?: { base: string; name: string; files: string[] }
  /**
   * The MCP server the template's Agent needs (a person starts it with `command` and adds it in
   * Settings > MCP servers): such a template cannot run offline on its own; its tests start
   * server-everything (tests/templates/mcpEcho.test.ts, e2e/templates.spec.ts).
   */
  mcpServer?: { id: string; url: string; command: string }
}

export function readIndex(): { format: string; version: number; templates: IndexEntry[] } {
  return JSON.parse(readFileSync(`${TEMPLATES_DIR}index.json`, 'utf8')) as {
    format: string
    version: number
    templates: IndexEntry[]
  }
}

export function templateFiles(): string[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((name) => name.endsWith('.wardflow.json'))
    .sort()
}

export function readTemplateText(file: string): string {
  return readFileSync(`${TEMPLATES_DIR}${file}`, 'utf8')
}

/** Parses a template file exactly as the app does; throws with every problem when refused. */
export function loadTemplate(file: string): FlowDocument {
  const parsed = parseWorkflowText(readTemplateText(file))
  if (!parsed.ok) throw new Error(`${file}: ${JSON.stringify(parsed.problems)}`)
  return parsed.doc
}

export function problemsOf(doc: FlowDocument): string[] {
  return preflight(doc, engineRegistry).map((p) => `${p.code} ${p.message}`)
}

/** A fetch that serves public/ under SITE_BASE and refuses everything else, recording calls. */
export function siteFetch(requests: string[]) {
  return async (input: string, init?: RequestInit): Promise<Response> => {
    requests.push(`${init?.method ?? 'GET'} ${input}`)
    const url = new URL(input)
    if (!input.startsWith(SITE_BASE)) throw new TypeError(`fetch failed: no network in this test (${input})`)
    const path = decodeURIComponent(url.pathname.slice(new URL(SITE_BASE).pathname.length))
    if (path.includes('..')) return new Response('forbidden', { status: 403 })
    try {
      const body = await readFile(`${PUBLIC_DIR}${path}`, 'utf8')
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
    } catch {
      return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } })
    }
  }
}

export interface TemplateRun {
  events: RunEvent[]
  requests: string[]
  durationMs: number
}

/** Runs `doc` offline with the default settings (the demo provider) and collects its events. */
export async function runTemplate(doc: FlowDocument, codeRunner: SandboxCodeRunner): Promise<TemplateRun> {
  const settings = defaultSettings()
  const requests: string[] = []
  const fetch = siteFetch(requests)
  const ctx: RunContext = {
    runId: `run_${doc.metadata.id}`,
    clock: systemClock,
    fetch,
    codeRunner,
    providers: createProviderResolver({
      getSettings: { providers: settings.providers, defaultProviderId: settings.defaultProviderId },
      fetch,
      clock: systemClock,
    }),
    estimateTokens: await loadTokenEstimator(),
    validator: createSchemaValidator(),
    signal: new AbortController().signal,
    protection: settings.runtimeProtection,
    baseUrl: SITE_BASE,
    knowledge: templateKnowledge(),
  }
  const started = Date.now()
  const events: RunEvent[] = []
  for await (const event of runFlow(doc, engineRegistry, ctx)) events.push(event)
  return { events, requests, durationMs: Date.now() - started }
}

/**
 * The bases the templates' index names, made from their bundled files as the app makes them
 * when a template opens: the same chunking, the HTML read as text, the demo's vectors.
 */
function templateKnowledge(): KnowledgeSearch {
  const bases = new Map<string, BaseIndex>()
  for (const entry of readIndex().templates) {
    if (entry.knowledge === undefined) continue
    const chunks = entry.knowledge.files.flatMap((file) => {
      const name = file.slice(file.lastIndexOf('/') + 1)
      const kind = documentKind(name)
      if (kind === undefined || kind === 'pdf') throw new Error(`${file} is not a text document`)
      return chunkText(documentText(kind, readTemplateText(file))).map((chunk, i) => ({
        id: `${name}#${i}`,
        text: chunk.text,
        source: name,
        vector: demoVector(chunk.text),
      }))
    })
    bases.set(entry.knowledge.base, createBaseIndex(chunks))
  }
  return createMemoryKnowledge(bases, {
    howToAdd: (id) => `No template bundles a base "${id}".`,
    embedQuery: async (_base, query) => demoVector(query),
  })
}

export function createRunner(): SandboxCodeRunner {
  return createNodeCodeRunner()
}

export function outputOf(events: readonly RunEvent[], nodeId: string): Record<string, unknown> | undefined {
  for (const e of events) if (e.type === 'nodeFinish' && e.nodeId === nodeId) return e.output
  return undefined
}

export function finishOf(events: readonly RunEvent[], nodeId: string) {
  return events.find((e) => e.type === 'nodeFinish' && e.nodeId === nodeId)
}

export function guardsOf(events: readonly RunEvent[], nodeId: string) {
  return events.flatMap((e) => (e.type === 'guard' && e.nodeId === nodeId ? [e] : []))
}

export function errorsOf(events: readonly RunEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'nodeError' ? [`${e.nodeId}: ${e.code} ${e.message}`] : []))
}

/** The inline demo script's reply texts of one node. */
export function scriptTexts(doc: FlowDocument, nodeId: string): string[] {
  const node = doc.nodes.find((n) => n.id === nodeId)
  const script = node?.data.config['demoScript'] as { replies: Array<{ text?: string }> } | undefined
  if (!script) throw new Error(`${nodeId} has no demo script`)
  return script.replies.map((r) => r.text ?? '')
}
