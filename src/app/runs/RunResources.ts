/**
 * Builds the engine's RunContext for one run of the app: providers with keys from settings
 * (asking for the passphrase when keys are locked), the sandbox runner (created once, started by
 * the first run that runs code), the token estimator (made by the first run that calls a model;
 * its tokenizer loads with the first count), the clock, fetch and Stop.
 */
import { approvalStore } from '../../store/approvalStore.ts'
import { TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN } from '../../defaults.ts'
import {
  FlowError,
  type Clock,
  type CodeRunner,
  type FetchLike,
  type FlowDocument,
  type KnowledgeSearch,
  type RunContext,
  type TokenEstimator,
} from '../../engine/index.ts'
import type { PricingPort } from '../../engine/cost/pricing.ts'
import type { RunLimits } from '../../engine/cost/ledger.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import type { NodeCatalog } from '../../nodes/catalog.ts'
import { createProviderResolver } from '../../providers/index.ts'
import { createSchemaValidator } from '../../platform/schemaValidator.ts'
import type { AppSettings } from '../../settings/schema.ts'
import type { KeyAccess } from '../core/keyService.ts'
import { browserMcp } from './browserMcp.ts'
import { browserPricing, type PriceTable } from './pricing.ts'

export type { KeyAccess }

/** A code runner the app may warm up before its first use (the browser worker pool can). */
export type WarmableCodeRunner = CodeRunner & { warm?(): Promise<void>; dispose?(): void }

/** Host abilities the run service needs; the browser composition and tests fill them in. */
export interface RunHost {
  clock: Clock
  fetch: FetchLike
  /** Called once: by the first run that runs code (runsCode), else by the first code call. */
  createCodeRunner(): WarmableCodeRunner
  /** Called once, by the first run that calls a model (RunResources keeps what it returns). */
  loadEstimator(): Promise<TokenEstimator>
  /** The site's address: HTTP nodes and tools resolve `./x` URLs against it (RunContext.baseUrl). */
  baseUrl?: string
  /** Knowledge bases for `knowledge` nodes (RunContext.knowledge). */
  knowledge?: KnowledgeSearch
  /** The model price table, loaded by the first run that calls a model; none = costs unpriced. */
  loadPriceTable?(): Promise<PriceTable>
}

/** The message shown when a locked key is needed and cannot be unlocked. */
export function keyLockedError(label: string, nodeId?: string): FlowError {
  return new FlowError(
    'KEY_LOCKED',
    `The API key of ${label} is locked; unlock your keys with your passphrase in Settings, then run again.`,
    { nodeId, details: { provider: label } },
  )
}

/** Ids of the non-demo providers the flow's model nodes use (so a locked key is asked for first). */
export function providersNeedingKeys(
  flow: FlowDocument,
  settings: AppSettings,
  catalog: NodeCatalog = nodeCatalog,
): string[] {
  const wanted = new Set<string>()
  for (const node of flow.nodes) {
    const raw = catalog.uses(node).provider
    if (raw === undefined) continue
    const id = raw.trim() === '' ? settings.defaultProviderId : raw.trim()
    const provider = settings.providers.find((p) => p.id === id)
    if (provider && provider.kind !== 'demo') wanted.add(provider.id)
  }
  return [...wanted]
}

/** True when some node of the flow calls a model (it uses a provider): only then is the tokenizer needed. */
export function callsModels(flow: FlowDocument, catalog: NodeCatalog = nodeCatalog): boolean {
  return flow.nodes.some((node) => catalog.uses(node).provider !== undefined)
}

/**
 * True when some node of the flow may run JavaScript in the sandbox (its type's `uses` says
 * `sandbox`: a Code node, an Agent with a code tool). Only such a run starts the sandbox with its first node; any other starts it
 * only if something asks (starting it compiles QuickJS and boots a worker, work that would
 * compete with the run's own first frames on a small machine).
 */
export function runsCode(flow: FlowDocument, catalog: NodeCatalog = nodeCatalog): boolean {
  return flow.nodes.some((node) => catalog.uses(node).sandbox === true)
}

/**
 * The settings' default whole-run limits as the engine takes them: only the limits that bound
 * something (a 0 or an absent one is none), so a run with no limit carries none in its context.
 */
export function settingsRunLimits(settings: AppSettings): RunLimits | undefined {
  const { maxRunTokens, maxRunCostUsd } = settings.runLimits
  const limits: RunLimits = {}
  if (maxRunTokens !== undefined && maxRunTokens > 0) limits.maxRunTokens = maxRunTokens
  if (maxRunCostUsd !== undefined && maxRunCostUsd > 0) limits.maxRunCostUsd = maxRunCostUsd
  return Object.keys(limits).length > 0 ? limits : undefined
}

/** Shares the code runner, the tokenizer and the passphrase prompt between runs. */
export class RunResources {
  private runner: WarmableCodeRunner | undefined
  private unlocking: Promise<boolean> | undefined
  private tokenizer: TokenEstimator | undefined
  private loadingTokenizer: Promise<TokenEstimator> | undefined

  constructor(
    private readonly host: RunHost,
    private readonly settings: () => AppSettings,
    private readonly keys?: KeyAccess,
  ) {}

  /** Set by dispose: no sandbox is started after that (nothing would shut it down). */
  private disposed = false

  /** What runs get as their code runner: the sandbox, started by the first call if not before. */
  private readonly sandbox: CodeRunner = {
    run: async (request) => {
      if (this.disposed) throw new FlowError('CANCELLED', 'The app closed its runs.')
      return this.codeRunner().run(request)
    },
  }

  /** The sandbox runner; created and warmed on first use. */
  codeRunner(): WarmableCodeRunner {
    if (!this.runner) {
      this.runner = this.host.createCodeRunner()
      // Warming loads the worker and QuickJS while the flow's first nodes run.
      this.runner.warm?.().catch(() => undefined)
    }
    return this.runner
  }

  /**
   * The tokenizer's estimator, made once. It is cheap to make: the tokenizer itself (a large
   * table, downloaded and parsed in a worker) loads with the first count (tokenWorkerClient.ts).
   */
  private tokenEstimator(): Promise<TokenEstimator> {
    this.loadingTokenizer ??= this.host.loadEstimator().then(
      (estimate) => (this.tokenizer = estimate),
      (error: unknown) => {
        this.loadingTokenizer = undefined
        throw error
      },
    )
    return this.loadingTokenizer
  }

  /**
   * The estimator of a run: the tokenizer, awaited when the flow calls models. A flow without
   * model nodes never waits for it and gets a rough count should anything ask.
   */
  private async estimator(needed: boolean): Promise<TokenEstimator> {
    if (this.tokenizer) return this.tokenizer
    if (needed) return this.tokenEstimator()
    return async (text) => Math.ceil(text.length / TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN)
  }

  /** Asks once for the passphrase, however many nodes need a key at the same moment. */
  async unlock(): Promise<boolean> {
    if (!this.keys?.isLocked()) return true
    if (!this.keys.requestUnlock) return false
    this.unlocking ??= this.keys.requestUnlock().finally(() => {
      this.unlocking = undefined
    })
    return this.unlocking
  }

  /** The key of `providerId` from settings, unlocking first when needed. */
  async apiKey(providerId: string): Promise<string> {
    const find = () => this.settings().providers.find((p) => p.id === providerId)
    const label = find()?.label || providerId
    if (this.keys?.isLocked() && !(await this.unlock())) throw keyLockedError(label)
    return find()?.apiKey ?? ''
  }

  /** A run's MCP port over the settings' servers (the hub loads on the first tool list). */
  private mcpPort() {
    return browserMcp({
      settings: this.settings,
      fetch: this.host.fetch,
      unlock: () => this.unlock(),
      isLocked: () => this.keys?.isLocked() ?? false,
    })
  }

  dispose(): void {
    this.disposed = true
    this.runner?.dispose?.()
    this.runner = undefined
  }

  /**
   * The run's pricing port when the flow calls models: the table loads once, by the first such
   * run. A table that fails to load leaves the run's costs unpriced rather than failing the run,
   * except what the settings' price overrides name.
   */
  private async pricing(needed: boolean): Promise<PricingPort | undefined> {
    if (!needed || !this.host.loadPriceTable) return undefined
    const providers = () => this.settings().providers
    const overrides = () => this.settings().priceOverrides
    try {
      return browserPricing(await this.host.loadPriceTable(), providers, overrides)
    } catch {
      return overrides().length > 0 ? browserPricing(null, providers, overrides) : undefined
    }
  }

  async context(runId: string, signal: AbortSignal, flow: FlowDocument): Promise<RunContext> {
    // A flow that runs code starts the sandbox now, so its first Code node finds it ready.
    if (runsCode(flow)) this.codeRunner()
    const [estimateTokens, pricing] = await Promise.all([
      this.estimator(callsModels(flow)),
      this.pricing(callsModels(flow)),
    ])
    const settings = this.settings()
    const runLimits = settingsRunLimits(settings)
    const providers = createProviderResolver({
      getSettings: () => {
        const current = this.settings()
        return { providers: current.providers, defaultProviderId: current.defaultProviderId }
      },
      fetch: this.host.fetch,
      clock: this.host.clock,
      unlockKey: this.keys ? (providerId) => this.apiKey(providerId) : undefined,
      callDeadlineMs: settings.runtimeProtection.modelCallDeadlineMs,
    })
    return {
      runId,
      clock: this.host.clock,
      fetch: this.host.fetch,
      codeRunner: this.sandbox,
      providers,
      estimateTokens,
      validator: createSchemaValidator(),
      signal,
      protection: { ...settings.runtimeProtection },
      baseUrl: this.host.baseUrl,
      approval: approvalStore.port,
      approvalTimeoutMs: settings.runtimeProtection.approvalTimeoutMs,
      ...(this.host.knowledge === undefined ? {} : { knowledge: this.host.knowledge }),
      ...(settings.mcpServers.length === 0 ? {} : { mcp: this.mcpPort() }),
      ...(pricing === undefined ? {} : { pricing }),
      ...(runLimits === undefined ? {} : { runLimits }),
    }
  }
}
