/**
 * `--knowledge <base id>=<folder or file>`: each base made in-process from files on disk (text,
 * Markdown, HTML and PDF; other files skipped), each chunk citing its path relative to the
 * folder. Offline runs give chunks the demo's local vectors; with --base-url and
 * --embeddings-model the server embeds them; otherwise search is by keyword only.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { KNOWLEDGE_DOCUMENT_MAX_BYTES } from '../defaults.ts'
import type { FetchLike, KnowledgeSearch } from '../engine/index.ts'
import { chunkText } from '../knowledge/chunk.ts'
import { embedTexts, type Embedder } from '../knowledge/embeddings.ts'
import { documentKind, documentText } from '../knowledge/extract.ts'
import { createMemoryKnowledge } from '../knowledge/memoryKnowledge.ts'
import { pdfText } from '../knowledge/pdfText.ts'
import { createBaseIndex, type BaseIndex, type StoredChunk } from '../knowledge/search.ts'
import { looksLikeOllama } from '../providers/errors.ts'
import type { RunOptions } from './args.ts'
import { BadInput } from './load.ts'

/** What embeds the chunks and queries of `--knowledge` bases, or undefined for keyword only. */
export function cliEmbedder(options: RunOptions, apiKey: string | undefined): Embedder | undefined {
  if (options.baseUrl === undefined) return { kind: 'demo' }
  if (options.embeddingsModel === undefined) return undefined
  return {
    kind: looksLikeOllama(options.baseUrl) ? 'ollama' : 'openai',
    baseUrl: options.baseUrl,
    model: options.embeddingsModel,
    ...(apiKey === undefined ? {} : { apiKey }),
    label: options.baseUrl,
  }
}

async function filesOf(path: string): Promise<Array<{ file: string; source: string }>> {
  let info
  try {
    info = await stat(path)
  } catch {
    throw new BadInput(`--knowledge: there is no file or folder ${path}`)
  }
  if (info.isFile()) return [{ file: path, source: basename(path) }]
  const entries = await readdir(path, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && documentKind(entry.name) !== undefined)
    .map((entry) => {
      const file = join(entry.parentPath, entry.name)
      return { file, source: relative(path, file).split(sep).join('/') }
    })
    .sort((a, b) => a.source.localeCompare(b.source))
}

/** pdf.js 6 uses Promise.withResolvers, which Node 20 lacks; Node 22 has it. */
function ensureWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: unknown }
  promise.withResolvers ??= <T>() => {
    let resolve: ((value: T) => void) | undefined
    let reject: ((reason: unknown) => void) | undefined
    const made = new Promise<T>((res, rej) => {
      resolve = res
      reject = rej
    })
    return { promise: made, resolve, reject }
  }
}

async function textOf(file: string, source: string): Promise<string | undefined> {
  const kind = documentKind(file)
  if (kind === undefined) return undefined
  const bytes = await readFile(file)
  if (bytes.byteLength > KNOWLEDGE_DOCUMENT_MAX_BYTES) {
    throw new BadInput(`--knowledge: ${source} is larger than ${KNOWLEDGE_DOCUMENT_MAX_BYTES} bytes`)
  }
  if (kind !== 'pdf') return documentText(kind, bytes.toString('utf8'))
  ensureWithResolvers()
  // The legacy build runs on Node without the browser's newest built-ins.
  return pdfText(
    new Uint8Array(bytes),
    () => import('pdfjs-dist/legacy/build/pdf.mjs') as Promise<typeof import('pdfjs-dist')>,
  )
}

async function buildBase(path: string, embedder: Embedder | undefined, fetch: FetchLike): Promise<BaseIndex> {
  const chunks: StoredChunk[] = []
  for (const { file, source } of await filesOf(path)) {
    const text = await textOf(file, source)
    if (text === undefined) continue
    chunkText(text).forEach((chunk, i) => chunks.push({ id: `${source}#${i}`, text: chunk.text, source }))
  }
  if (embedder !== undefined && chunks.length > 0) {
    const vectors = await embedTexts(
      embedder,
      chunks.map((c) => c.text),
      fetch,
    )
    chunks.forEach((chunk, i) => (chunk.vector = vectors[i]))
  }
  return createBaseIndex(chunks)
}

/** The knowledge port of a CLI run (every base built before the run starts). */
export async function loadCliKnowledge(
  specs: Readonly<Record<string, string>>,
  embedder: Embedder | undefined,
  fetch: FetchLike,
): Promise<KnowledgeSearch> {
  const bases = new Map<string, BaseIndex>()
  for (const [id, path] of Object.entries(specs)) bases.set(id, await buildBase(path, embedder, fetch))
  return createMemoryKnowledge(bases, {
    howToAdd: (id) => `Give it with --knowledge ${id}=<folder or file>.`,
    embedQuery: async (_base, query, signal) =>
      embedder === undefined ? undefined : (await embedTexts(embedder, [query], fetch, signal))[0],
  })
}
