/** The providers layer: LLM adapters behind the engine's provider port, and their helpers. */
export { createOpenAiCompatibleProvider, openAiHeaders, pickModel } from './openaiCompatible.ts'
export {
  createAnthropicProvider,
  anthropicHeaders,
  anthropicUrl,
  ANTHROPIC_DEFAULT_BASE_URL,
} from './anthropic.ts'
export { createDemoProvider, genericDemoText, type DemoProviderOptions } from './demo.ts'
export { demoScriptSchema, parseDemoScript, type DemoReply, type DemoScript } from './demoScript.ts'
export {
  createProvider,
  createProviderResolver,
  type ProviderDeps,
  type ProviderOverride,
  type ProviderResolverOptions,
  type ProvidersSnapshot,
} from './resolver.ts'
export { loadTokenCounter, loadTokenEstimator, type TokenCounter } from './tokens.ts'
export { listModels, testConnection, type ConnectionTestResult } from './models.ts'
export { httpStatusError, looksLikeOllama, networkError, parseRetryAfter } from './errors.ts'
export type { TransportDeps } from './transport.ts'
