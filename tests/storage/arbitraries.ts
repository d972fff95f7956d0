/** fast-check generators for storage properties: settings with planted secrets, flows, mutations. */
import fc from 'fast-check'
import { LLM_MAX_TOKENS_RANGE, LLM_TEMPERATURE_RANGE } from '../../src/defaults.ts'
import type { FlowDocument, FlowEdge, FlowNode } from '../../src/engine/index.ts'
import { defaultSettings, type AppSettings, type ProviderSettings } from '../../src/settings/schema.ts'
import type { Secrets } from '../../src/storage/secrets.ts'
import { config } from './support.ts'

// --- settings with planted secrets ----------------------------------------------------------

/** The random core of a secret: what must never appear in an export. */
const core = fc.stringMatching(/^[A-Za-z0-9]{14,32}$/)

const SHAPES = [
  'sk-',
  'sk-proj-',
  'Bearer ',
  'bearer ',
  'ghp_',
  'gho_',
  'github_pat_',
  'xoxb-',
  'AIza',
] as const
const SECRET_HEADERS = [
  'Authorization',
  'x-api-key',
  'X-Auth-Token',
  'api-key',
  'Proxy-Authorization',
  'X-Client-Secret',
  'Cookie',
]
const SECRET_QUERY = [
  'api_key',
  'key',
  'token',
  'access_token',
  'apikey',
  'auth',
  'password',
  'client_secret',
  'sig',
]

/** One secret planted somewhere in a provider; `core` is what the test looks for afterwards. */
type Plant =
  | { where: 'apiKey'; core: string }
  | { where: 'header'; core: string; name: string; scheme: boolean }
  | { where: 'query'; core: string; name: string }
  | {
      where: 'text'
      core: string
      shape: string
      field: 'label' | 'model' | 'baseUrl' | 'models' | 'headerValue'
      before: string
      after: string
    }

const filler = fc.string({ maxLength: 12 })

const plant: fc.Arbitrary<Plant> = fc.oneof(
  core.map((c): Plant => ({ where: 'apiKey', core: c })),
  fc
    .record({ core, name: fc.constantFrom(...SECRET_HEADERS), scheme: fc.boolean() })
    .map((p): Plant => ({ where: 'header', ...p })),
  fc.record({ core, name: fc.constantFrom(...SECRET_QUERY) }).map((p): Plant => ({ where: 'query', ...p })),
  fc
    .record({
      core,
      shape: fc.constantFrom(...SHAPES),
      field: fc.constantFrom('label', 'model', 'baseUrl', 'models', 'headerValue' as const),
      before: filler,
      after: filler,
    })
    .map((p): Plant => ({ where: 'text', ...p })),
)

function applyPlant(provider: ProviderSettings, secrets: Secrets, p: Plant, keysInSecrets: boolean): void {
  if (p.where === 'apiKey') {
    if (keysInSecrets) secrets.push({ providerId: provider.id, apiKey: p.core, headers: [] })
    else provider.apiKey = p.core
  } else if (p.where === 'header') {
    provider.headers.push({ key: p.name, value: p.scheme ? `Bearer ${p.core}` : p.core })
  } else if (p.where === 'query') {
    provider.baseUrl = `${provider.baseUrl}${provider.baseUrl.includes('?') ? '&' : '?'}${p.name}=${p.core}`
  } else {
    const text = `${p.before}${p.shape}${p.core}${p.after}`
    if (p.field === 'label') provider.label = text
    else if (p.field === 'model') provider.model = text
    else if (p.field === 'baseUrl') provider.baseUrl = `https://api.example.test/v1/${text}`
    else if (p.field === 'models') provider.models.push(text)
    else provider.headers.push({ key: 'X-Note', value: text })
  }
}

export interface PlantedSettings {
  settings: AppSettings
  secrets: Secrets
  cores: string[]
}

/** Valid settings with 1-8 planted secrets spread over 1-3 providers. */
export const plantedSettings: fc.Arbitrary<PlantedSettings> = fc
  .record({
    providers: fc.array(
      fc.record({
        plants: fc.array(plant, { minLength: 1, maxLength: 3 }),
        secretsTable: fc.boolean(),
        query: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    language: fc.constantFrom('en' as const, 'zh-CN' as const),
  })
  .map(({ providers, language }) => {
    const settings = defaultSettings()
    settings.language = language
    const secrets: Secrets = []
    const cores: string[] = []
    providers.forEach((spec, i) => {
      const provider: ProviderSettings = {
        id: `p${i}`,
        label: `Provider ${i}`,
        kind: 'openai',
        baseUrl: spec.query ? 'https://api.example.test/v1?region=eu' : 'https://api.example.test/v1',
        model: 'gpt-test',
        models: [],
        apiKey: '',
        stream: true,
        headers: [{ key: 'Accept', value: 'application/json' }],
      }
      for (const p of spec.plants) {
        applyPlant(provider, secrets, p, spec.secretsTable)
        cores.push(p.core)
      }
      settings.providers.push(provider)
    })
    return { settings, secrets, cores }
  })

// --- flows -----------------------------------------------------------------------------------

/** Text that cannot look like a secret, a query string or a credential field. */
const safeText = fc.stringMatching(/^[A-Za-z0-9 .,:!{}()\n\u4e00-\u4e09]{0,40}$/)
const fieldKey = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/).map((k) => `k_${k}`)
const coordinate = fc.double({ min: -1e5, max: 1e5, noNaN: true }).map((v) => Math.round(v * 100) / 100 + 0)
const jsonish = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown)

const configFor: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  input: fc.dictionary(fieldKey, safeText, { maxKeys: 4 }).map((values) => config('input', { values })),
  template: safeText.map((template) => config('template', { template })),
  llm: fc
    .record({
      prompt: safeText,
      systemPrompt: safeText,
      model: fc.constantFrom('', 'gpt-4o', 'demo'),
      temperature: fc
        .integer({ min: LLM_TEMPERATURE_RANGE.min * 10, max: LLM_TEMPERATURE_RANGE.max * 10 })
        .map((t) => t / 10),
      maxTokens: fc.integer({ min: LLM_MAX_TOKENS_RANGE.min, max: LLM_MAX_TOKENS_RANGE.max }),
      stream: fc.boolean(),
    })
    .map((patch) => config('llm', patch)),
  code: safeText.map((code) => config('code', { code: `return ${JSON.stringify(code)}` })),
  http: fc
    .record({
      url: fc.constantFrom('https://example.test/a', 'http://localhost:8080/b'),
      body: safeText,
      headers: fc.array(fc.record({ key: fc.constantFrom('Accept', 'X-Trace'), value: safeText }), {
        maxLength: 2,
      }),
    })
    .map((patch) => config('http', patch)),
  output: fc.dictionary(fieldKey, safeText, { maxKeys: 3 }).map((values) => config('output', { values })),
  note: safeText.map((text) => config('note', { text })),
  unsupported: fc
    .record({ originalType: fc.constantFrom('condition', 'loop', 'knowledge'), original: jsonish })
    .map((c) => ({ configVersion: 1, ...c })),
}

const nodeSpec = fc.record({
  type: fc.constantFrom(...Object.keys(configFor)),
  label: safeText,
  x: coordinate,
  y: coordinate,
  sized: fc.boolean(),
})

/** A valid flow: 1-12 nodes of every type, edges only from earlier to later nodes (acyclic). */
export const validFlow: fc.Arbitrary<FlowDocument> = fc
  .array(nodeSpec, { minLength: 1, maxLength: 12 })
  .chain((specs) =>
    fc.record({
      specs: fc.constant(specs),
      configs: fc.tuple(...specs.map((s) => configFor[s.type] as fc.Arbitrary<Record<string, unknown>>)),
      pairs: fc.uniqueArray(fc.tuple(fc.nat(specs.length - 1), fc.nat(specs.length - 1)), {
        maxLength: 20,
        selector: ([a, b]) => `${a}-${b}`,
      }),
      handles: fc.boolean(),
      name: safeText,
      tags: fc.array(safeText, { maxLength: 3 }),
      viewport: fc.record({
        x: coordinate,
        y: coordinate,
        zoom: fc.integer({ min: 1, max: 400 }).map((z) => z / 100),
      }),
    }),
  )
  .map(({ specs, configs, pairs, handles, name, tags, viewport }) => {
    const nodes: FlowNode[] = specs.map((s, i) => ({
      id: `n${i}`,
      type: s.type,
      position: { x: s.x, y: s.y },
      data: { label: s.label, config: configs[i] as Record<string, unknown> },
      ...(s.sized ? { size: { width: 200, height: 100 } } : {}),
    }))
    const edges: FlowEdge[] = pairs
      .filter(([a, b]) => a < b)
      .map(([a, b]) => ({
        id: `e${a}_${b}`,
        source: `n${a}`,
        target: `n${b}`,
        ...(handles ? { sourceHandle: 'out', targetHandle: 'in' } : {}),
      }))
    return {
      metadata: {
        id: 'flow_prop',
        name,
        description: '',
        tags,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
      },
      viewport,
      nodes,
      edges,
    }
  })

// --- mutations of a valid workflow file --------------------------------------------------------

type Path = Array<string | number>

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix)
  if (Array.isArray(value)) value.forEach((v: unknown, i) => paths(v, [...prefix, i], out))
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out)
  return out
}

function edit(
  root: unknown,
  path: Path,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
): unknown {
  // `root` is a fresh JSON.parse result owned by this sample, so it is edited in place.
  if (path.length === 0) return root
  const copy = root
  let parent: unknown = copy
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return copy
    parent = (parent as Record<string | number, unknown>)[key]
  }
  if (typeof parent === 'object' && parent !== null)
    change(parent as Record<string | number, unknown>, path[path.length - 1] as string | number)
  return copy
}

const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    op: fc.constant('retype' as const),
    at: fc.nat(),
    value: fc.constantFrom<unknown>(null, 0, -1, 1e308, '', 'x', true, [], {}),
  }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.string({ minLength: 1, maxLength: 3 }),
  }),
  fc.record({ op: fc.constant('duplicateNode' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('random' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
  fc.record({ op: fc.constant('garbage' as const), text: fc.string({ maxLength: 200 }) }),
)

/** 1-3 mutations applied to `base` (a valid file's text): deleted keys, wrong types, random JSON, cut text. */
export function mutatedFile(base: string): fc.Arbitrary<string> {
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((steps) => {
    let value: unknown = JSON.parse(base)
    let text: string | undefined
    for (const step of steps) {
      if (text !== undefined) {
        if (step.op === 'truncate') text = text.slice(0, step.at % (text.length + 1))
        else if (step.op === 'insert')
          text =
            text.slice(0, step.at % (text.length + 1)) + step.text + text.slice(step.at % (text.length + 1))
        continue
      }
      const all = paths(value)
      const pick = (at: number): Path => all[at % all.length] as Path
      if (step.op === 'delete')
        value = edit(value, pick(step.at), (p, k) =>
          Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k],
        )
      else if (step.op === 'replace' || step.op === 'retype')
        value = edit(value, pick(step.at), (p, k) => (p[k] = step.value))
      else if (step.op === 'duplicateNode')
        value = edit(value, ['nodes', 0], (p) =>
          Array.isArray(p) ? p.push(structuredClone(p[step.at % Math.max(1, p.length)])) : undefined,
        )
      else if (step.op === 'random') value = step.value
      else if (step.op === 'garbage') text = step.text
      else {
        text = JSON.stringify(value, null, 2)
        text =
          step.op === 'truncate'
            ? text.slice(0, step.at % (text.length + 1))
            : text.slice(0, step.at % (text.length + 1)) + step.text + text.slice(step.at % (text.length + 1))
      }
    }
    return text ?? JSON.stringify(value, null, 2)
  })
}
