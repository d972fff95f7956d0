/** Command-line parsing for `wardflow run`. Pure: returns what to do or why the line is wrong. */
import { keyedRecord } from '../engine/index.ts'
import { parseMcpOption, type McpServerSpec } from '../mcp/servers.ts'

export interface RunOptions {
  command: 'run'
  file: string
  /** `--input key=value`, in order; later ones win. */
  inputs: Record<string, string>
  script?: string
  baseUrl?: string
  model?: string
  apiKeyEnv?: string
  /** `--site-base`: the site's address (ending in '/'), for site-relative (`./x`) request URLs. */
  siteBase?: string
  /** `--knowledge <base id>=<folder or file>`: the documents of each knowledge base, by id. */
  knowledge: Record<string, string>
  /** `--embeddings-model`: embed knowledge with this model of the --base-url server. */
  embeddingsModel?: string
  /** `--mcp <id>=<url>` / `--mcp <id>=stdio:<command>`: the MCP servers Agent `mcp` tools name. */
  mcp: McpServerSpec[]
  stream: boolean
  json: boolean
  /** `--approve all|none`: every tool call that asks for approval is approved / declined. */
  approve?: 'all' | 'none'
  /** `--record FILE`: write a cassette of the run's model and HTTP replies (src/cassette/). */
  record?: string
  /** `--replay FILE`: answer every model and HTTP call from this cassette, offline. */
  replay?: string
  /** `--trace FILE`: write the run as OTLP JSON spans there. */
  trace?: string
  /** `--otlp URL`: POST the same spans to an OTLP/HTTP collector (base URL or its /v1/traces). */
  otlp?: string
  /** `--otlp-header name=value` (repeatable): sent with the POST; the values are never printed. */
  otlpHeaders: Record<string, string>
  /** `--trace-content`: put prompts, replies and tool input/output in the trace. */
  traceContent: boolean
  /** `--max-run-tokens N` / `--max-run-cost-usd X`: whole-run limits, over the flow file's. */
  maxRunTokens?: number
  maxRunCostUsd?: number
}

export type ParsedArgs =
  RunOptions | { command: 'help' } | { command: 'version' } | { command: 'error'; reason: string }

export const USAGE = `Usage: wardflow run <flow.wardflow.json> [options]

Runs a workflow file headless and prints what its nodes do.

Options:
  --input key=value     Override an Input node value (repeatable). "key" sets that key on every
                        Input node that has it; "nodeId.key" sets it on one node.
  --script FILE         Play a demo script (*.demo-script.json) for every model node, offline.
  --base-url URL        Send every model node to this OpenAI-compatible server instead
                        (e.g. http://localhost:11434/v1 for Ollama).
  --model NAME          The model to ask for with --base-url.
  --api-key-env VAR     Read the API key for --base-url from environment variable VAR.
  --site-base URL       Resolve site-relative URLs of HTTP nodes and tools ("./data/x.json", as
                        in the research-agent template) against URL, the address the app is
                        served from (e.g. https://you.github.io/wardflow/).
  --knowledge ID=PATH   The knowledge base ID that knowledge nodes name, made from the text,
                        Markdown, HTML and PDF files of the folder or file PATH (repeatable).
                        Offline (no --base-url) chunks get the demo's local vectors too.
  --embeddings-model NAME
                        With --base-url: embed knowledge with this model (POST /embeddings,
                        or Ollama's /api/embed), fused with keyword search. Without it, keyword only.
  --approve all|none    Agent tool calls that ask for approval ("approval": "ask"): approve them
                        all, or decline them all. Without it a terminal is asked (y/n/a, a =
                        always for that tool in this run); otherwise every such call is
                        declined and the model reads "The user declined this call.".
  --mcp ID=URL          The MCP server ID that Agent "mcp" tools name, over Streamable HTTP
                        (e.g. --mcp everything=http://127.0.0.1:3001/mcp; repeatable).
  --mcp ID=stdio:CMD    The same, started by the run as a command speaking stdio
                        (e.g. --mcp fs="stdio:npx -y @modelcontextprotocol/server-filesystem .").
  --record FILE         Write every model reply and HTTP reply of the run to the cassette FILE
                        (no keys, no headers), with the run's outputs and guard events.
  --replay FILE         Answer every model and HTTP call from the cassette FILE, with no network
                        and no provider flags; a request it does not hold fails the node.
  --max-run-tokens N    Stop the whole run before it uses more than N tokens (all its model
                        calls: LLM and Agent nodes, loops, sub-flows); a hint at 80 %.
                        Wins over the flow file's metadata.limits. 0 = no limit.
  --max-run-cost-usd X  The same in US dollars, priced from the bundled price table
                        (@pydantic/genai-prices); calls of models it does not know are
                        counted as unpriced, never guessed. The run's cost is printed at the end.
  --no-stream           Ask the server for whole replies instead of a stream.
  --json                Print each engine event as one JSON line on stdout.
  --trace FILE          Write the run as OpenTelemetry spans (OTLP JSON) to FILE: one span per
                        run, node, model call and tool call.
  --otlp URL            Send the same spans to an OTLP/HTTP collector (JSON). URL is the
                        collector's base (http://localhost:4318, "/v1/traces" is added) or the
                        full traces URL (ending in /v1/traces, used as it is).
  --otlp-header K=V     A header for --otlp, e.g. authorization=Bearer... (repeatable; the
                        values are never printed).
  --trace-content       Put prompts, replies, tool arguments and results and node inputs and
                        outputs in the trace (left out unless asked for). Keys never are.
  -h, --help            Show this help.
  --version             Show the version.

Exit codes: 0 the run succeeded, 1 a node failed, 2 bad input (unreadable file, invalid
workflow, cycle, bad option), 130 stopped with Ctrl-C. A trace that could not be written or
sent makes a successful run exit 1.`

const VALUE_OPTIONS = new Set([
  '--input',
  '-i',
  '--script',
  '--base-url',
  '--model',
  '--api-key-env',
  '--site-base',
  '--knowledge',
  '--embeddings-model',
  '--approve',
  '--mcp',
  '--record',
  '--replay',
  '--trace',
  '--otlp',
  '--otlp-header',
  '--max-run-tokens',
  '--max-run-cost-usd',
])

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** `--site-base` as a folder URL ('/' added), or null when it is not a full http(s) URL. */
function siteBaseOf(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  // Without the slash, "./data/x.json" would resolve beside the sub-path instead of inside it.
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  return url.href
}

/** Parses `argv` (without node and the script path). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv.length === 0)
    return { command: 'error', reason: 'no command given. Try "wardflow run flow.wardflow.json".' }
  const [command, ...rest] = argv
  if (command === '-h' || command === '--help' || command === 'help') return { command: 'help' }
  if (command === '--version' || command === '-v') return { command: 'version' }
  if (command !== 'run')
    return {
      command: 'error',
      reason: `unknown command "${command}". The commands are run, batch, test, worker, enqueue and help (see "wardflow --help").`,
    }
  const options: RunOptions = {
    command: 'run',
    file: '',
    inputs: keyedRecord(),
    knowledge: keyedRecord(),
    mcp: [],
    stream: true,
    json: false,
    otlpHeaders: keyedRecord(),
    traceContent: false,
  }
  const files: string[] = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const name = eq > 0 ? arg.slice(0, eq) : arg
    let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined
    if (VALUE_OPTIONS.has(name) && value === undefined) {
      value = rest[++i]
      if (value === undefined) return { command: 'error', reason: `${name} needs a value.` }
    }
    switch (name) {
      case '-h':
      case '--help':
        return { command: 'help' }
      case '--json':
        options.json = true
        break
      case '--no-stream':
        options.stream = false
        break
      case '--input':
      case '-i': {
        const split = (value as string).indexOf('=')
        if (split <= 0) return { command: 'error', reason: `--input expects key=value, got "${value}".` }
        options.inputs[(value as string).slice(0, split)] = (value as string).slice(split + 1)
        break
      }
      case '--knowledge': {
        const split = (value as string).indexOf('=')
        if (split <= 0 || split === (value as string).length - 1)
          return {
            command: 'error',
            reason: `--knowledge expects <base id>=<folder or file>, got "${value}".`,
          }
        options.knowledge[(value as string).slice(0, split)] = (value as string).slice(split + 1)
        break
      }
      case '--mcp': {
        const spec = parseMcpOption(value as string)
        if ('error' in spec) return { command: 'error', reason: spec.error }
        if (options.mcp.some((s) => s.id === spec.id))
          return { command: 'error', reason: `--mcp ${spec.id} is given twice.` }
        options.mcp.push(spec)
        break
      }
      case '--trace':
        options.trace = value
        break
      case '--trace-content':
        options.traceContent = true
        break
      case '--otlp': {
        if (!/^https?:\/\//i.test(value as string) || siteBaseOf(value as string) === null)
          return {
            command: 'error',
            reason: `--otlp expects an http(s) URL such as http://localhost:4318, got "${value}".`,
          }
        options.otlp = value
        break
      }
      case '--otlp-header': {
        const split = (value as string).indexOf('=')
        const header = (value as string).slice(0, split)
        // Only the name is quoted: the value is usually a credential.
        if (split <= 0 || !HEADER_NAME.test(header))
          return {
            command: 'error',
            reason: `--otlp-header expects name=value with a valid header name, got "${split <= 0 ? '(no name=)' : header}".`,
          }
        options.otlpHeaders[header] = (value as string).slice(split + 1)
        break
      }
      case '--max-run-tokens':
      case '--max-run-cost-usd': {
        const limit = Number(value)
        const integer = arg === '--max-run-tokens'
        if (
          (value as string).trim() === '' ||
          !Number.isFinite(limit) ||
          limit < 0 ||
          (integer && !Number.isInteger(limit))
        )
          return {
            command: 'error',
            reason: `${arg} expects ${integer ? 'a whole number of tokens' : 'an amount of US dollars'} (0 or more), got "${value}".`,
          }
        if (integer) options.maxRunTokens = limit
        else options.maxRunCostUsd = limit
        break
      }
      case '--embeddings-model':
        options.embeddingsModel = value
        break
      case '--approve':
        if (value !== 'all' && value !== 'none')
          return { command: 'error', reason: `--approve expects "all" or "none", got "${value}".` }
        options.approve = value
        break
      case '--script':
        options.script = value
        break
      case '--record':
        options.record = value
        break
      case '--replay':
        options.replay = value
        break
      case '--base-url':
        options.baseUrl = value
        break
      case '--model':
        options.model = value
        break
      case '--api-key-env':
        options.apiKeyEnv = value
        break
      case '--site-base': {
        const siteBase = siteBaseOf(value as string)
        if (siteBase === null) {
          return {
            command: 'error',
            reason: `--site-base expects a full http(s) URL such as https://you.github.io/wardflow/, got "${value}".`,
          }
        }
        options.siteBase = siteBase
        break
      }
      default:
        if (arg.startsWith('-') && arg !== '-')
          return { command: 'error', reason: `unknown option "${arg}". See "wardflow run --help".` }
        files.push(arg)
    }
  }
  if (files.length === 0)
    return { command: 'error', reason: 'no workflow file given. Usage: wardflow run <flow.wardflow.json>' }
  if (files.length > 1)
    return { command: 'error', reason: `one workflow file at a time (got ${files.join(', ')}).` }
  if (options.script !== undefined && options.baseUrl !== undefined) {
    return {
      command: 'error',
      reason: '--script and --base-url cannot be used together: pick the demo script or the server.',
    }
  }
  if (
    options.baseUrl === undefined &&
    (options.model !== undefined || options.apiKeyEnv !== undefined || options.embeddingsModel !== undefined)
  ) {
    return { command: 'error', reason: '--model, --api-key-env and --embeddings-model go with --base-url.' }
  }
  const replayConflict = replayConflictOf(options)
  if (replayConflict !== null) return { command: 'error', reason: replayConflict }
  if (options.traceContent && options.trace === undefined && options.otlp === undefined)
    return { command: 'error', reason: '--trace-content goes with --trace or --otlp.' }
  if (Object.keys(options.otlpHeaders).length > 0 && options.otlp === undefined)
    return { command: 'error', reason: '--otlp-header goes with --otlp.' }
  options.file = files[0] as string
  return options
}

/** `--replay` answers every call itself: provider flags and `--record` make no sense beside it. */
function replayConflictOf(options: RunOptions): string | null {
  if (options.replay === undefined) return null
  if (options.record !== undefined) return '--record and --replay cannot be used together.'
  if (options.script !== undefined || options.baseUrl !== undefined)
    return '--replay plays the cassette with no provider: drop --script and --base-url.'
  return null
}
