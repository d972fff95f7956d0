/**
 * Settings shapes shared by storage, providers, the store and the UI. Pure (zod only), so every
 * layer may import it. Numbers and ranges come from src/defaults.ts.
 */
import { z } from '../zodMini.ts'
import {
  AGENT_MAX_ITERATIONS_RANGE,
  AGENT_TOKEN_BUDGET_RANGE,
  AUTOSAVE_DELAY_MS,
  AUTOSAVE_DELAY_RANGE_MS,
  LOOP_TRIP_AT_RANGE,
  PRICE_OVERRIDE_MODEL_MAX_CHARS,
  PRICE_OVERRIDES_MAX,
  PRICE_PER_MTOK_RANGE_USD,
  PROVIDER_CALL_DEADLINE_MS,
  PROVIDER_CALL_DEADLINE_RANGE_MS,
  APPROVAL_TIMEOUT_MS,
  APPROVAL_TIMEOUT_RANGE_MS,
  RUN_HISTORY_PER_FLOW,
  RUN_HISTORY_RANGE,
  RUN_MAX_COST_RANGE_USD,
  RUN_MAX_TOKENS_RANGE,
  SANDBOX_TIMEOUT_RANGE_MS,
  TEMPLATE_MAX_RESOLVED_CHARS,
  TEMPLATE_MAX_RESOLVED_RANGE_CHARS,
  TEXT_LOOP_DETECTION_ENABLED,
  TOOL_TIMEOUT_RANGE_MS,
  type NumberRange,
} from '../defaults.ts'
import { defaultProtection } from '../engine/index.ts'

/** A number schema that refuses (never clamps) values outside `range`. */
export function rangedNumber(range: NumberRange, integer = true) {
  return (integer ? z.int() : z.number()).check(z.gte(range.min), z.lte(range.max))
}

export const providerKindSchema = z.enum(['openai', 'anthropic', 'demo'])
export type ProviderKind = z.infer<typeof providerKindSchema>

export const keyValueSchema = z.object({ key: z.string(), value: z.string() })

export const providerSettingsSchema = z.object({
  /** Slug the nodes refer to, e.g. "openai", "ollama". */
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  label: z.string().check(z.maxLength(100)),
  kind: providerKindSchema,
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 */
  baseUrl: z.string(),
  /** Default model for nodes that name none. */
  model: z.string(),
  /** Models fetched from the server's model list, for the pickers. */
  models: z._default(z.array(z.string()), []),
  /** The API key. Kept in IndexedDB only; '' when none. Never exported in plain text. */
  apiKey: z._default(z.string(), ''),
  stream: z._default(z.boolean(), true),
  headers: z._default(z.array(keyValueSchema), []),
})
export type ProviderSettings = z.infer<typeof providerSettingsSchema>

/**
 * An MCP server the Agent's `mcp` tools reach over Streamable HTTP (flow-control.md, "MCP tools
 * and approval"). Every header value is a secret: storage keeps it with the API keys.
 */
export const mcpServerSettingsSchema = z.object({
  /** The id Agent tools name (`{ "kind": "mcp", "server": "<id>" }`). */
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  name: z._default(z.string().check(z.maxLength(100)), ''),
  url: z.string(),
  headers: z._default(z.array(keyValueSchema), []),
})
export type McpServerSettings = z.infer<typeof mcpServerSettingsSchema>

export const runtimeProtectionSchema = z.object({
  loopDetectionEnabled: z.boolean(),
  loopDetectionThreshold: rangedNumber(LOOP_TRIP_AT_RANGE),
  progressAware: z.boolean(),
  cycleDetection: z.boolean(),
  // Added after settings were first stored: older settings and files take the default.
  textLoopDetection: z._default(z.boolean(), TEXT_LOOP_DETECTION_ENABLED),
  maxIterations: rangedNumber(AGENT_MAX_ITERATIONS_RANGE),
  maxTokenBudget: rangedNumber(AGENT_TOKEN_BUDGET_RANGE),
  sandboxTimeoutMs: rangedNumber(SANDBOX_TIMEOUT_RANGE_MS),
  toolTimeoutMs: rangedNumber(TOOL_TIMEOUT_RANGE_MS),
  /**
   * The most one model call may take (PROVIDER_CALL_DEADLINE_MS). Not an agent setting: every
   * model call has it. Defaulted, so settings saved before it existed stay valid.
   */
  modelCallDeadlineMs: z._default(rangedNumber(PROVIDER_CALL_DEADLINE_RANGE_MS), PROVIDER_CALL_DEADLINE_MS),
  /** How long an asked tool call waits for the person (APPROVAL_TIMEOUT_MS); defaulted for older settings. */
  approvalTimeoutMs: z._default(rangedNumber(APPROVAL_TIMEOUT_RANGE_MS), APPROVAL_TIMEOUT_MS),
  // Added after settings were first stored: older settings and files take the default.
  templateMaxChars: z._default(rangedNumber(TEMPLATE_MAX_RESOLVED_RANGE_CHARS), TEMPLATE_MAX_RESOLVED_CHARS),
})

/**
 * The default whole-run limits (flow-control.md, "Whole-run budget, cost and degenerate text"):
 * a flow's `metadata.limits` win over them. Absent or 0 = no limit.
 */
export const runLimitsSettingsSchema = z.object({
  maxRunTokens: z.optional(rangedNumber(RUN_MAX_TOKENS_RANGE)),
  maxRunCostUsd: z.optional(rangedNumber(RUN_MAX_COST_RANGE_USD, false)),
})
export type RunLimitsSettings = z.infer<typeof runLimitsSettingsSchema>

/** The provider a price override names for every provider (a model served by several). */
export const ANY_PROVIDER = '*'

/**
 * A price that wins over the maintained table for one model: on one provider (its settings id),
 * or on any (`*`). USD per million tokens; cached input falls back to the input price.
 */
export const priceOverrideSchema = z.object({
  provider: z.string().check(z.regex(/^(\*|[A-Za-z0-9_-]{1,64})$/)),
  model: z.string().check(z.minLength(1), z.maxLength(PRICE_OVERRIDE_MODEL_MAX_CHARS)),
  inputUsdPerMTok: rangedNumber(PRICE_PER_MTOK_RANGE_USD, false),
  outputUsdPerMTok: rangedNumber(PRICE_PER_MTOK_RANGE_USD, false),
  cachedInputUsdPerMTok: z.optional(rangedNumber(PRICE_PER_MTOK_RANGE_USD, false)),
})
export type PriceOverride = z.infer<typeof priceOverrideSchema>

export const languageSchema = z.enum(['en', 'zh-CN'])
export type Language = z.infer<typeof languageSchema>
export const themeSchema = z.enum(['light', 'dark', 'system'])
export type Theme = z.infer<typeof themeSchema>

export const appSettingsSchema = z.object({
  language: languageSchema,
  theme: themeSchema,
  autosaveDelayMs: rangedNumber(AUTOSAVE_DELAY_RANGE_MS),
  runHistoryPerFlow: rangedNumber(RUN_HISTORY_RANGE),
  defaultProviderId: z.string(),
  providers: z.array(providerSettingsSchema),
  runtimeProtection: runtimeProtectionSchema,
  // Added after settings were first stored: older settings and files have none.
  mcpServers: z._default(z.array(mcpServerSettingsSchema), []),
  // Added after settings were first stored: older settings and files set no limit and no price.
  runLimits: z._default(runLimitsSettingsSchema, {}),
  priceOverrides: z._default(z.array(priceOverrideSchema).check(z.maxLength(PRICE_OVERRIDES_MAX)), []),
})
export type AppSettings = z.infer<typeof appSettingsSchema>

/** The built-in offline provider: the default until a person adds a key. */
export const DEMO_PROVIDER: ProviderSettings = {
  id: 'demo',
  label: 'Demo (offline)',
  kind: 'demo',
  baseUrl: '',
  model: 'demo',
  models: ['demo'],
  apiKey: '',
  stream: true,
  headers: [],
}

/**
 * Settings with the built-in demo provider in place: the templates and new flows run on it
 * offline, so a file or an old store that lacks it (or gives its id another kind) gets it back.
 * Returns the same object when nothing was missing; `note` says what was put back.
 */
export function withDemoProvider(settings: AppSettings): { settings: AppSettings; note?: string } {
  const index = settings.providers.findIndex((p) => p.id === DEMO_PROVIDER.id)
  const found = settings.providers[index]
  if (found?.kind === 'demo') return { settings }
  const providers =
    found === undefined
      ? [...settings.providers, { ...DEMO_PROVIDER }]
      : settings.providers.map((p, i) => (i === index ? { ...DEMO_PROVIDER } : p))
  return {
    settings: { ...settings, providers },
    note:
      found === undefined
        ? 'providers: the built-in demo provider was missing and is back'
        : `providers[${index}]: the id "demo" belongs to the built-in demo provider, which replaced it`,
  }
}

/** The Runtime protection settings a fresh install starts with. */
export function defaultRuntimeProtection(): AppSettings['runtimeProtection'] {
  return {
    ...defaultProtection(),
    modelCallDeadlineMs: PROVIDER_CALL_DEADLINE_MS,
    approvalTimeoutMs: APPROVAL_TIMEOUT_MS,
  }
}

export function defaultSettings(): AppSettings {
  return {
    language: 'en',
    theme: 'light',
    autosaveDelayMs: AUTOSAVE_DELAY_MS,
    runHistoryPerFlow: RUN_HISTORY_PER_FLOW,
    defaultProviderId: DEMO_PROVIDER.id,
    providers: [{ ...DEMO_PROVIDER }],
    runtimeProtection: defaultRuntimeProtection(),
    mcpServers: [],
    runLimits: {},
    priceOverrides: [],
  }
}
