/**
 * PatchCat node -> Wardflow config, one mapper per type (workflow-format.md, "Importing PatchCat
 * workflows"). Each mapper marks what it consumed; whatever is left is reported in the notes.
 */
import {
  AGENT_MAX_ITERATIONS_RANGE,
  AGENT_TOKEN_BUDGET_RANGE,
  LLM_MAX_TOKENS_RANGE,
  LLM_TEMPERATURE_RANGE,
  LOOP_TRIP_AT_RANGE,
  type NumberRange,
} from '../defaults.ts'
import { isValidFieldKey } from '../engine/index.ts'
import { isPlainObject, type NoteLog, type NoteParams } from './restore/index.ts'
import { mapStructuredOutput } from './patchcatStructured.ts'

/** Why a node becomes a placeholder: the English clause of its note and the note's catalogue key. */
export class PlaceholderReason {
  constructor(
    readonly text: string,
    readonly key: string,
    readonly params: NoteParams = {},
    /** True when `key` words the whole note in its own way (it then gets only `node` besides `params`). */
    readonly wordsWholeNote = false,
  ) {}
}

/** A PatchCat node's `data`, with bookkeeping of which fields were used. */
export class PatchCatData {
  readonly config: Record<string, unknown>
  readonly inputs: Record<string, unknown>
  private readonly used = new Set<string>()

  constructor(
    readonly data: Record<string, unknown>,
    readonly notes: NoteLog,
    readonly nodeId: string,
  ) {
    this.config = isPlainObject(data.config) ? data.config : {}
    this.inputs = isPlainObject(data.inputs) ? data.inputs : {}
  }

  /** `config.<key>` or `inputs.<key>`, whichever is set first, marked as used. */
  take(key: string, from: ReadonlyArray<'config' | 'inputs'> = ['config', 'inputs']): unknown {
    for (const where of from) {
      const source = where === 'config' ? this.config : this.inputs
      if (Object.hasOwn(source, key) && source[key] !== undefined) {
        this.used.add(`${where}.${key}`)
        return source[key]
      }
    }
    return undefined
  }

  text(key: string, from?: ReadonlyArray<'config' | 'inputs'>): string | undefined {
    const value = this.take(key, from)
    if (value === undefined || value === null) return undefined
    return typeof value === 'string' ? value : JSON.stringify(value)
  }

  /** Adds a note about this node: its English text, catalogue key and values (`node` is added). */
  note(text: string, key: string, params: NoteParams = {}): void {
    this.notes.add(`${this.nodeId}: ${text}`, key, { node: this.nodeId, ...params })
  }

  /** A number fitted into `range`; a value outside it is moved to the nearest end, with a note. */
  number(key: string, range: NumberRange, label = key, integer = true): number | undefined {
    const value = this.take(key)
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      if (value !== undefined) {
        const shown = JSON.stringify(value)
        this.note(
          `${label} ${shown} is not a number and was not kept.`,
          'issues:importNote.patchcat.notNumber',
          {
            field: label,
            value: shown,
          },
        )
      }
      return undefined
    }
    const rounded = integer ? Math.round(n) : n
    const fitted = Math.min(range.max, Math.max(range.min, rounded))
    if (fitted !== n)
      this.note(
        `${label} ${n} is outside ${range.min}-${range.max}; set to ${fitted}.`,
        'issues:importNote.patchcat.outOfRange',
        { field: label, value: n, min: range.min, max: range.max, fitted },
      )
    return fitted
  }

  /** Everything in config/inputs that no mapper used, as `config.x` / `inputs.y`. */
  leftovers(): string[] {
    const out: string[] = []
    for (const [where, source] of [
      ['config', this.config],
      ['inputs', this.inputs],
    ] as const) {
      for (const key of Object.keys(source))
        if (!this.used.has(`${where}.${key}`)) out.push(`${where}.${key}`)
    }
    return out
  }
}

const VALUE_NOTES = {
  value: {
    renamed: 'issues:importNote.patchcat.valueRenamed',
    notText: 'issues:importNote.patchcat.valueNotText',
  },
  output: {
    renamed: 'issues:importNote.patchcat.outputRenamed',
    notText: 'issues:importNote.patchcat.outputNotText',
  },
} as const

/** `{ key: value }` -> text values with keys Wardflow can reference. */
function textValues(
  record: Record<string, unknown>,
  d: PatchCatData,
  what: keyof typeof VALUE_NOTES,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [rawKey, value] of Object.entries(record)) {
    let key = isValidFieldKey(rawKey) ? rawKey : rawKey.replace(/[\s.[\]{}|"'\\]+/g, '_').slice(0, 128)
    if (!isValidFieldKey(key) || Object.hasOwn(out, key)) key = `${what}_${Object.keys(out).length + 1}`
    const from = JSON.stringify(rawKey)
    if (key !== rawKey) {
      const to = JSON.stringify(key)
      d.note(`${what} ${from} renamed to ${to}.`, VALUE_NOTES[what].renamed, { from, to })
    }
    const text =
      typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value)
    if (typeof value !== 'string' && value !== undefined)
      d.note(`${what} ${from} was not text; kept as ${text}.`, VALUE_NOTES[what].notText, { from, text })
    Object.defineProperty(out, key, { value: text, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** `[{key, value}]` or `{ key: value }` -> `[{key, value}]`. */
export function keyValues(value: unknown): Array<{ key: string; value: string }> {
  const str = (v: unknown): string =>
    typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v)
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown) => {
      if (!isPlainObject(item)) return []
      const key = item.key ?? item.name
      return typeof key === 'string' && item.enabled !== false ? [{ key, value: str(item.value) }] : []
    })
  }
  if (isPlainObject(value)) return Object.entries(value).map(([key, v]) => ({ key, value: str(v) }))
  return []
}

export function mapInput(d: PatchCatData): Record<string, unknown> {
  for (const key of Object.keys(d.inputs)) d.take(key, ['inputs'])
  const fromConfig = isPlainObject(d.take('values', ['config']))
    ? (d.config.values as Record<string, unknown>)
    : {}
  return { values: textValues({ ...fromConfig, ...d.inputs }, d, 'value') }
}

export function mapOutput(d: PatchCatData): Record<string, unknown> {
  for (const key of Object.keys(d.inputs)) d.take(key, ['inputs'])
  return { values: textValues(d.inputs, d, 'output') }
}

export function mapPrompt(d: PatchCatData): Record<string, unknown> {
  return {
    template: d.text('template', ['inputs', 'config']) ?? d.text('prompt', ['inputs', 'config']) ?? '',
  }
}

function modelFields(d: PatchCatData): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const model = d.text('model', ['config'])
  if (model !== undefined) out.model = model
  const system = d.text('systemPrompt', ['inputs', 'config']) ?? d.text('system_prompt', ['inputs', 'config'])
  if (system !== undefined) out.systemPrompt = system
  out.prompt = d.text('prompt', ['inputs', 'config']) ?? d.text('userPrompt', ['inputs', 'config']) ?? ''
  const provider = d.take('provider', ['config'])
  if (provider !== undefined) {
    const name = JSON.stringify(provider)
    d.note(
      `PatchCat provider ${name} is not a Wardflow provider; the default provider is used.`,
      'issues:importNote.patchcat.provider',
      { provider: name },
    )
  }
  return out
}

export function mapLlm(d: PatchCatData): Record<string, unknown> {
  const out = modelFields(d)
  const temperature = d.number('temperature', LLM_TEMPERATURE_RANGE, 'temperature', false)
  if (temperature !== undefined) out.temperature = temperature
  const maxTokens =
    d.number('maxTokens', LLM_MAX_TOKENS_RANGE) ?? d.number('max_tokens', LLM_MAX_TOKENS_RANGE)
  if (maxTokens !== undefined) out.maxTokens = maxTokens
  const stream = d.take('stream', ['config'])
  if (typeof stream === 'boolean') out.stream = stream
  const output = mapStructuredOutput(d)
  if (output) out.output = output
  return out
}

function toolName(raw: unknown, index: number): string {
  const name = typeof raw === 'string' ? raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) : ''
  return name === '' ? `tool_${index + 1}` : name
}

const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** An http tool's method; anything Wardflow's http tools cannot send becomes POST, with a note. */
function toolMethod(raw: unknown, tool: string, d: PatchCatData): string {
  const method = typeof raw === 'string' ? raw.toUpperCase() : 'POST'
  if (TOOL_METHODS.includes(method)) return method
  const [name, shown] = [JSON.stringify(tool), String(JSON.stringify(raw))]
  d.note(
    `tool ${name} method ${shown} is not supported for tools; POST is used.`,
    'issues:importNote.patchcat.toolMethod',
    { tool: name, method: shown },
  )
  return 'POST'
}

/** PatchCat tools -> Wardflow tools; `nodeIds` maps PatchCat node ids to the imported ones. */
function mapTools(value: unknown, d: PatchCatData, nodeIds: ReadonlyMap<string, string>): unknown[] {
  if (!Array.isArray(value)) return []
  const names = new Set<string>()
  return value.flatMap((raw: unknown, i): Array<Record<string, unknown>> => {
    if (!isPlainObject(raw)) {
      const json = JSON.stringify(raw)?.slice(0, 100) ?? ''
      d.note(
        `tools[${i}] is not an object and was left out: ${json}.`,
        'issues:importNote.patchcat.toolNotObject',
        { item: `tools[${i}]`, json },
      )
      return []
    }
    let name = toolName(raw.name, i)
    // Tool names must be unique for the model to tell the tools apart.
    if (names.has(name)) name = `${name.slice(0, 60)}_${i + 1}`
    names.add(name)
    if (name !== raw.name) {
      const [from, to] = [String(JSON.stringify(raw.name)), JSON.stringify(name)]
      d.note(`tool ${from} renamed to ${to}.`, 'issues:importNote.patchcat.toolRenamed', { from, to })
    }
    const cfg = isPlainObject(raw.config) ? raw.config : {}
    const base = {
      name,
      description: typeof raw.description === 'string' ? raw.description : '',
      parameters: isPlainObject(raw.schema)
        ? raw.schema
        : isPlainObject(raw.parameters)
          ? raw.parameters
          : { type: 'object', properties: {} },
    }
    const kind = raw.type ?? raw.kind
    if (kind === 'builtin_code' || kind === 'code') {
      const code = raw.implementation ?? raw.code ?? cfg.code
      return [{ ...base, kind: 'code', code: typeof code === 'string' ? code : '' }]
    }
    if (kind === 'builtin_http' || kind === 'http') {
      // PatchCat's editor keeps an http tool's URL in `implementation`.
      const url = raw.url ?? cfg.url ?? raw.implementation
      const method = raw.method ?? cfg.method
      return [
        {
          ...base,
          kind: 'http',
          url: typeof url === 'string' ? url : '',
          method: toolMethod(method, name, d),
          headers: keyValues(raw.headers ?? cfg.headers),
        },
      ]
    }
    if (kind === 'canvas_node' || kind === 'node') {
      const target = raw.nodeId ?? raw.targetNodeId ?? cfg.nodeId ?? cfg.targetNodeId
      const nodeId = typeof target === 'string' ? (nodeIds.get(target) ?? target) : ''
      return [{ ...base, kind: 'node', nodeId }]
    }
    const [tool, type] = [JSON.stringify(name), String(JSON.stringify(kind))]
    const json = JSON.stringify(raw).slice(0, 300)
    d.note(
      `tool ${tool} has type ${type}, which Wardflow does not have; it was left out (the original is: ${json}).`,
      'issues:importNote.patchcat.toolKind',
      { tool, type, json },
    )
    return []
  })
}

export function mapAgent(d: PatchCatData, nodeIds: ReadonlyMap<string, string>): Record<string, unknown> {
  const out = mapLlm(d)
  const tools = d.take('tools', ['config', 'inputs'])
  out.tools = mapTools(tools, d, nodeIds)
  const max = d.number('maxIterations', AGENT_MAX_ITERATIONS_RANGE)
  if (max !== undefined) out.maxIterations = max
  const budget = d.number('maxTokenBudget', AGENT_TOKEN_BUDGET_RANGE)
  if (budget !== undefined) out.maxTokenBudget = budget
  const threshold = d.number('loopDetectionThreshold', LOOP_TRIP_AT_RANGE)
  if (threshold !== undefined) out.loopDetectionThreshold = threshold
  for (const flag of ['loopDetectionEnabled', 'progressAware', 'cycleDetection'] as const) {
    const value = d.take(flag, ['config'])
    if (typeof value === 'boolean') out[flag] = value
  }
  return out
}
