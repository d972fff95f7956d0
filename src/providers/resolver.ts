/**
 * The engine's ProviderResolver: finds the provider a node names in settings and builds a fresh
 * adapter for each node run (so a demo script starts from its first reply for every node).
 */
import {
  FlowError,
  type ChatRequest,
  type Clock,
  type FetchLike,
  type LlmProvider,
  type ProviderRequest,
  type ProviderResolver,
} from '../engine/index.ts'
import type { ProviderSettings } from '../settings/schema.ts'
import { createAnthropicProvider } from './anthropic.ts'
import { createDemoProvider } from './demo.ts'
import { parseDemoScript, type DemoScript } from './demoScript.ts'
import { createOpenAiCompatibleProvider } from './openaiCompatible.ts'
import type { TransportDeps } from './transport.ts'

/** The part of settings the resolver reads. */
export interface ProvidersSnapshot {
  providers: readonly ProviderSettings[]
  defaultProviderId: string
}

/** Replaces every node's provider: the CLI's `--script` and `--base-url`. */
export type ProviderOverride =
  | { kind: 'script'; script: DemoScript }
  | { kind: 'openai'; baseUrl: string; model?: string; apiKey?: string; stream: boolean }

export interface ProviderResolverOptions {
  /** Read at every resolve, so edits in Settings apply to the next node; or a fixed snapshot. */
  getSettings: (() => ProvidersSnapshot) | ProvidersSnapshot
  fetch: FetchLike
  clock: Clock
  override?: ProviderOverride
  /**
   * Gives the API key of a non-demo provider when keys live outside settings (the secrets store,
   * possibly locked with a passphrase). Called at every resolve of a non-demo provider when set;
   * '' means none stored (the settings entry's own key is used then); throws KEY_LOCKED (or any
   * FlowError) when it cannot unlock. Other errors are reported as KEY_LOCKED.
   */
  unlockKey?: (providerId: string) => Promise<string>
  /** Idle timeout of HTTP providers; see TransportDeps. */
  requestTimeoutMs?: number
  /** The most one model call may take; see TransportDeps. */
  callDeadlineMs?: number
}

export interface ProviderDeps extends TransportDeps {
  /** The script a demo provider plays; without one it gives the generic demo reply. */
  demoScript?: DemoScript
}

/** Builds the adapter for one settings entry. */
export function createProvider(settings: ProviderSettings, deps: ProviderDeps): LlmProvider {
  switch (settings.kind) {
    case 'openai':
      return createOpenAiCompatibleProvider(settings, deps)
    case 'anthropic':
      return createAnthropicProvider(settings, deps)
    case 'demo':
      return createDemoProvider({ id: settings.id, clock: deps.clock, script: deps.demoScript })
  }
}

/**
 * Forces one model name on every call (the CLI's `--model`). Keeps what the provider says of
 * itself: dropping `structuredOutput` would move a native schema request into the prompt.
 */
function withModel(provider: LlmProvider, model: string): LlmProvider {
  const chat = (request: ChatRequest, signal: AbortSignal) => provider.chat({ ...request, model }, signal)
  return provider.structuredOutput
    ? { id: provider.id, structuredOutput: provider.structuredOutput, chat }
    : { id: provider.id, chat }
}

/** Reads a node's inline demo script: absent, a JSON object, or JSON text. */
function nodeScript(raw: unknown, nodeId: string): DemoScript | undefined {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined
  try {
    return parseDemoScript(typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const text = error instanceof FlowError ? message : `Invalid demo script: it is not JSON (${message})`
    throw new FlowError('INVALID_CONFIG', `Node "${nodeId}": ${text}`, {
      nodeId,
      cause: error,
      details: error instanceof FlowError ? error.details : undefined,
    })
  }
}

/** Creates the resolver the run context hands to the engine. */
export function createProviderResolver(options: ProviderResolverOptions): ProviderResolver {
  const deps: TransportDeps = {
    fetch: options.fetch,
    clock: options.clock,
    requestTimeoutMs: options.requestTimeoutMs,
    callDeadlineMs: options.callDeadlineMs,
  }
  const snapshot = () =>
    typeof options.getSettings === 'function' ? options.getSettings() : options.getSettings

  async function resolve(request: ProviderRequest): Promise<LlmProvider> {
    const override = options.override
    if (override?.kind === 'script')
      return createDemoProvider({ clock: options.clock, script: override.script })
    if (override?.kind === 'openai') {
      const provider = createOpenAiCompatibleProvider(
        {
          id: 'cli',
          label: `the OpenAI-compatible server at ${override.baseUrl}`,
          kind: 'openai',
          baseUrl: override.baseUrl,
          model: override.model ?? '',
          models: [],
          apiKey: override.apiKey ?? '',
          stream: override.stream,
          headers: [],
        },
        deps,
      )
      return override.model ? withModel(provider, override.model) : provider
    }

    const { providers, defaultProviderId } = snapshot()
    const wanted = request.providerId?.trim() ? request.providerId.trim() : defaultProviderId
    const settings = providers.find((provider) => provider.id === wanted)
    if (!settings) {
      const known = providers.map((provider) => provider.id).join(', ') || 'none'
      throw new FlowError(
        'PROVIDER_MISSING',
        `Node "${request.nodeId}" uses the provider "${wanted}", which is not in Settings (known providers: ${known}). Add it in Settings or pick another provider on the node.`,
        { nodeId: request.nodeId, details: { providerId: wanted } },
      )
    }
    if (settings.kind === 'demo') {
      return createProvider(settings, { ...deps, demoScript: nodeScript(request.demoScript, request.nodeId) })
    }
    if (!options.unlockKey) return createProvider(settings, deps)
    let apiKey: string
    try {
      apiKey = await options.unlockKey(settings.id)
    } catch (error) {
      if (error instanceof FlowError) throw error
      throw new FlowError(
        'KEY_LOCKED',
        `The API key of ${settings.label || settings.id} is locked; unlock your keys with your passphrase in Settings, then run again.`,
        { nodeId: request.nodeId, cause: error },
      )
    }
    // An empty answer means "no stored secret": a key typed into the settings entry still counts.
    return createProvider({ ...settings, apiKey: apiKey !== '' ? apiKey : settings.apiKey }, deps)
  }

  return { resolve }
}
