/**
 * What a node type folder exports: its config schema (zod), defaults, the inspector's field
 * descriptions (so one generic inspector renders every type), a summary for the node body, and
 * the engine-facing executor. `registry.ts` lists them; `components.ts` maps custom React bodies.
 */
import type { z } from '../zodMini.ts'
import type { NumberRange } from '../defaults.ts'
import { zodIssueText } from '../issueText.ts'
import type {
  ConfigIssue,
  EngineNodeType,
  InheritedSetting,
  NodeExecution,
  NodeResult,
  ParseResult,
  RuntimeProtection,
} from '../engine/index.ts'

/** Palette groups, in the order the palette shows them. */
export const PALETTE_GROUPS = ['inputs', 'models', 'actions', 'logic', 'outputs', 'notes'] as const
export type PaletteGroup = (typeof PALETTE_GROUPS)[number]

/**
 * What a node is to the app beyond running it. Code outside `src/nodes/<type>/` asks for a role,
 * never for a type name.
 * - `step`: an ordinary step (the default).
 * - `flowInput`: its `values` are the flow's inputs, set by key per run (CLI `--input`).
 * - `flowOutput`: its values are the flow's result (run summary, the CLI's Outputs).
 * - `annotation`: canvas data, not a step: drawn as a note, sized by hand, left out of fitting.
 * - `placeholder`: keeps an imported node Wardflow cannot run (`config.originalType`).
 */
export type NodeRole = 'step' | 'flowInput' | 'flowOutput' | 'annotation' | 'placeholder'

/** Host abilities a node needs, so a run prepares only those (RunResources). */
export interface NodeUses {
  /** Runs JavaScript in the sandbox (starts it with the run's first node). */
  sandbox?: boolean
  /** The provider id it calls ('' = the default provider); undefined: it calls no model. */
  provider?: string
  /** Sends HTTP requests of its own. */
  network?: boolean
}

/** What drawing a connection does (nodes/wiring.ts). */
export interface NodeWiring<C> {
  /** The output field a downstream node most likely wants (`{{id.field}}`). */
  mainOutput?(config: C): string | undefined
  /**
   * The config keys to change when a connection from a node with a main output is drawn into
   * this one: `reference` is `{{source.field}}`. Only fill what is empty; null changes nothing.
   */
  fill?(config: C, reference: string): Partial<C> | null
}

export type FieldKind =
  | 'text' // one line
  | 'textarea' // a few lines of template text (Monaco when long)
  | 'code' // Monaco, `language` set
  | 'number' // `range` from defaults.ts; out-of-range input is refused with a message
  | 'boolean'
  | 'select' // `options`
  | 'provider' // picks a provider id from settings ('' = default provider)
  | 'model' // model name, with suggestions from the chosen provider's model list
  | 'keyValues' // [{ key, value }]
  | 'record' // { [key]: string } (input values, output values)
  | 'tools' // the Agent tools editor
  | 'json' // any JSON, edited in Monaco
  | 'flow' // picks a saved flow by id (sub-flow), with a button that opens it
  | 'flowInputs' // one template per Input key of the flow picked in `flow`; shows its Output keys
  | 'cases' // a condition's cases and rules, edited as a form (CasesField)
  | 'outputSchema' // structured output { schema, repairAttempts }: Monaco, fields, from an example

export interface FieldSpec {
  /** Config key (top level). */
  key: string
  kind: FieldKind
  /** i18n keys; the label is always visible. */
  labelKey: string
  helpKey?: string
  range?: NumberRange
  /**
   * The unit of a 'number' field. 'ms': stored in milliseconds, shown and typed in seconds (as
   * Settings shows the same timeouts); 's' and 'tokens' are shown as stored.
   */
  unit?: 'ms' | 's' | 'tokens'
  /** A 'number' field where 0 means "no limit" (the token budget): shown as such when inherited. */
  zeroMeansUnlimited?: boolean
  options?: ReadonlyArray<{ value: string; labelKey: string }>
  language?: 'javascript' | 'json' | 'markdown' | 'plaintext'
  /**
   * Optional fields may be left empty to inherit (node > global > default); the definition's
   * `inherited` says what an empty one takes, and the inspector shows it.
   */
  optional?: boolean
  /** Groups fields under a collapsible heading in the inspector, e.g. 'protection'. */
  group?: string
  /**
   * Shown only while this holds for the node's config (a loop's `until` only in mode `while`):
   * a field that does not apply is not drawn, so selecting the node loads no editor for it.
   * Absent: always shown. The value stays in the config either way.
   */
  shownWhen?: (config: Readonly<Record<string, unknown>>) => boolean
}

export interface NodeDefinition<C = unknown> {
  type: string
  /** A short glyph shown in the palette and node header. */
  icon: string
  /** CSS colour of the node's accent. */
  color: string
  labelKey: string
  descriptionKey: string
  /**
   * Config fields whose default is text a person reads (an Agent's system prompt), with the
   * catalogue key of that text: a node added in the UI gets it in the person's language.
   */
  defaultTextKeys?: Readonly<Record<string, string>>
  /** Current config shape version; older shapes are migrated by `migrate`. */
  configVersion: number
  schema: z.ZodMiniType<C>
  defaultConfig(): C
  /**
   * Loads the inspector's field descriptions (`<type>/fields.ts`). A loader, not the list: the
   * definitions load with the palette at start, the fields are needed only once a node is
   * inspected, so they load with the inspector and keep the start's JavaScript small.
   */
  fields: () => Promise<readonly FieldSpec[]>
  /** One line for the node body. */
  summary(config: C): string
  /** Its place in the palette; absent: not offered there (placeholders). */
  palette?: { group: PaletteGroup; order: number }
  /** See NodeRole; default `step`. */
  role?: NodeRole
  /** Its size when added, for a node sized by hand (a note); absent: the standard node size. */
  defaultSize?: { width: number; height: number }
  /** Host abilities it needs for `config`; absent: none. */
  uses?(config: C): NodeUses
  wiring?: NodeWiring<C>
  /**
   * For a type that calls a flow (`engine.callsFlow`): its config calling `flowId` instead, so
   * an import that stores a carried flow under a new id can rewrite the calls to it.
   */
  retargetFlow?(config: C, flowId: string): C
  /**
   * The output handles a finished run of this node carried a value on, read from its output (a
   * condition: the case it took); absent: every output. The canvas highlights the taken path.
   */
  takenOutputs?(output: Readonly<Record<string, unknown>>): readonly string[] | undefined
  /**
   * What each optional field takes when the node leaves it empty, keyed by field key, given the
   * global settings a run gets (`RunContext.protection`). The executor resolves empty fields
   * with the same function (`effectiveSetting`), so the inspector shows what runs.
   */
  inherited?(globals: InheritGlobals): Readonly<Record<string, InheritedSetting>>
  /** Migrates a config written with an older `configVersion` to the current shape. */
  migrate?(raw: Record<string, unknown>, fromVersion: number): Record<string, unknown>
  /** What the engine runs: executor, ports (`engine.ports`), whether it executes or joins. */
  engine: EngineNodeType
}

/** The global settings a node's empty fields inherit from. */
export interface InheritGlobals {
  protection: RuntimeProtection
}

/**
 * The value a run uses for one inheritable field: the node's own value, else what it inherits.
 * `null` counts as empty (old files write it for "inherit").
 */
export function effectiveSetting<T>(own: T | null | undefined, inherited: InheritedSetting<T>): T {
  return own ?? inherited.value
}

/** Turns a zod schema into the engine's parseConfig, with JSON paths on every issue. */
export function zodParser<C>(schema: z.ZodMiniType<C>): (raw: unknown) => ParseResult<C> {
  return (raw) => {
    const result = schema.safeParse(raw)
    if (result.success) return { ok: true, value: result.data }
    const issues: ConfigIssue[] = result.error.issues.map((issue) => ({
      path: formatPath(issue.path),
      message: issue.message,
      ...zodIssueText(issue),
    }))
    return { ok: false, issues }
  }
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? String(segment) : `.${String(segment)}`
  }
  return out
}

type Executor<C> = (exec: NodeExecution<C>) => Promise<NodeResult>

/**
 * An executor whose module loads when a node of the type first runs: the definitions (schemas,
 * fields, summaries) are the editor's, while the code that runs nodes (agent loop, HTTP, model
 * calls) is only needed once a run starts. A failed load is retried on the next run.
 */
export function lazyExecutor<C>(load: () => Promise<Executor<C>>): Executor<C> {
  let loading: Promise<Executor<C>> | null = null
  return async (exec) => {
    loading ??= load().catch((error: unknown) => {
      loading = null
      throw error
    })
    return (await loading)(exec)
  }
}
