/**
 * Everything the CLI checks before a run, each failure as a one-line reason (exit code 2):
 * the workflow file (read, parsed, migrated), its preflight problems, the demo script, the
 * server options.
 */
import { constants, type Stats } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { CLI_MORE_PROBLEMS_SHOWN, IMPORT_MAX_FILE_BYTES } from '../defaults.ts'
import { preflight, type FlowDocument, type FlowLookup, type Problem } from '../engine/index.ts'
import { createFlowLookup } from '../nodes/flowLookup.ts'
import { isSiteRelativeUrl } from '../nodes/http/url.ts'
import { engineRegistry, nodeCatalog } from '../nodes/registry.ts'
import { parseDemoScript } from '../providers/demoScript.ts'
import type { ProviderOverride } from '../providers/resolver.ts'
import { decodeTextFile } from '../storage/textFile.ts'
import { parseWorkflowText } from '../storage/workflowFile.ts'
import type { RunOptions } from './args.ts'

/** A reason the CLI refuses to run (exit code 2). */
export class BadInput extends Error {
  override readonly name = 'BadInput'
  /**
   * @param notes the file's import notes, printed as warnings before the reason: a refused
   *   PatchCat file's notes often say why (a sub-workflow the file does not carry).
   */
  constructor(
    message: string,
    readonly notes: readonly string[] = [],
  ) {
    super(message)
  }
}

/** What only the CLI can add to a preflight refusal: where it looks for what is missing. */
const CLI_HINTS: Partial<Record<Problem['code'], string>> = {
  SUBFLOW_NOT_FOUND:
    'The CLI runs the flows a file carries: add that flow to the file\'s "subflows" list (Export workflow in the app writes them).',
}

function errorText(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code: unknown }).code === 'ENOENT'
  ) {
    return 'no such file'
  }
  return error instanceof Error ? error.message : String(error)
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory'
  if (info.isFIFO()) return 'a named pipe'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSocket()) return 'a socket'
  return 'not a regular file'
}

const mb = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1)

/**
 * Reads a file a person named, checking what it is before reading a byte: a named pipe would
 * hang the CLI and /dev/zero would be read without end. Only regular files up to
 * IMPORT_MAX_FILE_BYTES are read, and never more than that (a file growing meanwhile too).
 */
export async function readText(path: string, what: string): Promise<string> {
  const refuse = (reason: string): BadInput => new BadInput(`cannot read the ${what} ${path}: ${reason}`)
  const check = (info: Stats): void => {
    if (!info.isFile()) throw refuse(`it is ${kindOf(info)}, not a file`)
    if (info.size > IMPORT_MAX_FILE_BYTES)
      throw refuse(`it is ${mb(info.size)} MB; the limit is ${mb(IMPORT_MAX_FILE_BYTES)} MB`)
  }
  try {
    check(await stat(path))
    // Non-blocking, so that a file swapped for a pipe after the check cannot hang the open.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    try {
      check(await handle.stat())
      // Read to the end, but one byte past the limit at most: a file may grow meanwhile.
      const buffer = new Uint8Array(IMPORT_MAX_FILE_BYTES + 1)
      let total = 0
      for (;;) {
        const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null)
        if (bytesRead === 0) break
        total += bytesRead
        if (total > IMPORT_MAX_FILE_BYTES) throw refuse(`it is larger than ${mb(IMPORT_MAX_FILE_BYTES)} MB`)
      }
      return decodeTextFile(buffer.subarray(0, total))
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (error instanceof BadInput) throw error
    throw refuse(errorText(error))
  }
}

export interface LoadedWorkflow {
  doc: FlowDocument
  /** The flows the file carries, for its Sub-flow nodes. */
  flows: FlowLookup
  /** The same flows as documents (their secrets and site-relative URLs are checked too). */
  subflows: FlowDocument[]
  /** Non-blocking problems and import notes, for stderr. */
  warnings: string[]
}

/** Reads, validates and preflights a workflow file. */
export async function loadWorkflow(path: string): Promise<LoadedWorkflow> {
  return loadWorkflowText(await readText(path, 'workflow file'), path)
}

/** Validates and preflights a workflow file's text (a queue job carries the text); `path` names it. */
export function loadWorkflowText(text: string, path: string): LoadedWorkflow {
  const parsed = parseWorkflowText(text)
  if (!parsed.ok) {
    const [first, ...rest] = parsed.problems
    const where = first?.path ? `${first.path}: ` : ''
    // The others by where they are, so one run shows what to fix (a few; the browser lists all).
    const shown = rest.slice(0, CLI_MORE_PROBLEMS_SHOWN).map((p) => p.path || p.message)
    const more =
      rest.length === 0
        ? ''
        : ` (and ${rest.length} more ${rest.length === 1 ? 'problem' : 'problems'}: ${shown.join(', ')}${rest.length > shown.length ? ', …' : ''})`
    throw new BadInput(
      `${path} is not a valid workflow: ${where}${first?.message ?? 'unknown problem'}${more}`,
    )
  }
  const flows = createFlowLookup(parsed.subflows, nodeCatalog)
  const problems = preflight(parsed.doc, engineRegistry, { flows })
  const errors = problems.filter((p) => p.severity === 'error')
  if (errors.length > 0) {
    const first = errors[0] as Problem
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more: ${summarize(errors.slice(1))})` : ''
    const hint = CLI_HINTS[first.code]
    throw new BadInput(`${path} cannot run: ${first.message}${more}${hint ? ` ${hint}` : ''}`, parsed.notes)
  }
  const warnings = [...parsed.notes, ...problems.map((p) => p.message)]
  return { doc: parsed.doc, flows, subflows: parsed.subflows, warnings }
}

function summarize(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.code}${p.nodeId ? ` at ${p.nodeId}` : ''}`).join(', ')
}

/** Builds the provider override from --script or --base-url; undefined for neither. */
export async function loadOverride(
  options: RunOptions,
  env: NodeJS.ProcessEnv,
): Promise<ProviderOverride | undefined> {
  if (options.script !== undefined) {
    const text = await readText(options.script, 'demo script')
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new BadInput(`the demo script ${options.script} is not JSON: ${errorText(error)}`)
    }
    try {
      return { kind: 'script', script: parseDemoScript(json) }
    } catch (error) {
      throw new BadInput(`the demo script ${options.script} is not valid: ${errorText(error)}`)
    }
  }
  if (options.baseUrl === undefined) return undefined
  let url: URL
  try {
    url = new URL(options.baseUrl)
  } catch {
    throw new BadInput(
      `--base-url "${options.baseUrl}" is not a URL; write it like http://localhost:11434/v1`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadInput(`--base-url must be an http:// or https:// URL, not ${url.protocol}//`)
  }
  let apiKey: string | undefined
  if (options.apiKeyEnv !== undefined) {
    apiKey = env[options.apiKeyEnv]
    if (apiKey === undefined || apiKey === '')
      throw new BadInput(`--api-key-env ${options.apiKeyEnv}: that environment variable is not set`)
  }
  return { kind: 'openai', baseUrl: options.baseUrl, model: options.model, apiKey, stream: options.stream }
}

/** Run inputs that no Input node would use: a likely typo worth a warning. */
export function unusedInputs(doc: FlowDocument, inputs: Readonly<Record<string, string>>): string[] {
  const keys = new Set<string>()
  for (const node of doc.nodes) {
    if (nodeCatalog.role(node.type) !== 'flowInput') continue
    const values = node.data.config['values']
    if (typeof values !== 'object' || values === null) continue
    for (const key of Object.keys(values)) {
      keys.add(key)
      keys.add(`${node.id}.${key}`)
    }
  }
  const inputNodes = new Set(
    doc.nodes.filter((n) => nodeCatalog.role(n.type) === 'flowInput').map((n) => n.id),
  )
  return Object.keys(inputs).filter((name) => {
    if (keys.has(name)) return false
    const dot = name.indexOf('.')
    // `nodeId.newKey` adds a key to that node, so it is used as long as the node exists.
    return !(dot > 0 && inputNodes.has(name.slice(0, dot)))
  })
}

/**
 * The site-relative URLs (`./x`, `../x`) the flow's HTTP nodes and http tools request. The web
 * app resolves them against the site it is served from; the CLI has no site, so it refuses to
 * start without --site-base instead of failing halfway through a run.
 */
export function siteRelativeUrls(doc: FlowDocument): Array<{ nodeId: string; url: string }> {
  const found: Array<{ nodeId: string; url: string }> = []
  for (const node of doc.nodes) {
    const { url, tools } = node.data.config
    const toolUrls = Array.isArray(tools)
      ? tools.map((tool: unknown) =>
          typeof tool === 'object' && tool !== null ? (tool as { url?: unknown }).url : undefined,
        )
      : []
    for (const candidate of [url, ...toolUrls]) {
      if (typeof candidate === 'string' && isSiteRelativeUrl(candidate.trim())) {
        found.push({ nodeId: node.id, url: candidate.trim() })
      }
    }
  }
  return found
}
