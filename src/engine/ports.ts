/**
 * Host ports: everything the engine needs from the world arrives through these interfaces, so
 * the same engine runs in a browser tab, in Node for the CLI, and in tests with fakes.
 */
import type { Usage } from './events.ts'

/** Time, injected so tests can use a manual clock. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`, or rejects with an AbortError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

// --- LLM provider port ------------------------------------------------------------------------

export interface ToolCall {
  id: string
  name: string
  /** The raw argument string, exactly as the model sent it. */
  arguments: string
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string }

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string
  description: string
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>
}

/**
 * Asks the model for JSON fitting `schema` (structured output). Providers that can ask natively
 * do (OpenAI-compatible `response_format`, Anthropic a forced tool, Ollama `format`); the reply
 * text is then the JSON text.
 */
export interface ResponseFormat {
  /** A name for the schema (`^[A-Za-z0-9_-]{1,64}$`), what OpenAI and Anthropic require. */
  name: string
  schema: Record<string, unknown>
  /** OpenAI's strict mode; only for schemas it accepts (all properties required, no extras). */
  strict: boolean
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  tools?: ToolSpec[]
  /** 'none' disables tools for this call (the finalize call). */
  toolChoice?: 'auto' | 'none'
  temperature?: number
  maxTokens?: number
  /** Overrides the provider's own stream switch when set. */
  stream?: boolean
  /** Asks for JSON of this schema; only sent to providers with `structuredOutput: 'native'`. */
  responseFormat?: ResponseFormat
}

/**
 * Token counts as a provider reported them: `cachedPrompt` (read from the provider's prompt
 * cache) is part of `prompt`, `reasoning` part of `completion`; each only when reported.
 */
export interface ReportedUsage {
  prompt: number
  completion: number
  cachedPrompt?: number
  reasoning?: number
}

export interface ChatResult {
  text: string
  reasoning: string
  toolCalls: ToolCall[]
  /** Absent when the provider reported none; the caller estimates it then. */
  usage?: ReportedUsage
  finishReason: string
  model: string
}

export type ChatChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** Always the last chunk of a successful call. */
  | { type: 'done'; result: ChatResult }

export interface LlmProvider {
  /** The provider id from settings (e.g. "openai", "demo"). */
  readonly id: string
  /**
   * 'native' when the provider honours `ChatRequest.responseFormat`; otherwise the caller puts
   * the schema into the prompt and sends no responseFormat.
   */
  readonly structuredOutput?: 'native' | 'prompt'
  /**
   * Streams one model call. Failures throw FlowErrors with PROVIDER_* codes; an abort rejects
   * with CANCELLED. Retries for 429/5xx happen inside, honouring Retry-After.
   */
  chat(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk>
}

export interface ProviderRequest {
  /** The provider id the node names; undefined means the default provider from settings. */
  providerId?: string
  nodeId: string
  /** The node's inline demo script (`config.demoScript`), played when the provider is `demo`. */
  demoScript?: unknown
}

/**
 * Finds the provider a node names. Throws PROVIDER_MISSING for an unknown id and KEY_LOCKED
 * while keys are locked and the person has not typed the passphrase.
 */
export interface ProviderResolver {
  resolve(request: ProviderRequest): Promise<LlmProvider>
}

// --- Code runner port -------------------------------------------------------------------------

export interface CodeRunRequest {
  code: string
  /** Globals the code sees, e.g. `{ inputs }` for a Code node, `{ args, inputs }` for a tool. */
  bindings: Record<string, unknown>
  timeoutMs: number
  signal: AbortSignal
}

export interface CodeRunResult {
  /** The JSON value the code returned (undefined becomes null). */
  result: unknown
  logs: string[]
}

/** Runs untrusted JavaScript in a sandbox; throws SANDBOX_* FlowErrors. */
export interface CodeRunner {
  run(request: CodeRunRequest): Promise<CodeRunResult>
}

/**
 * Counts the tokens of a text with a real tokenizer, for providers that report no usage and for
 * the agent's before-call budget check. Asynchronous because counting a long reply takes tens to
 * hundreds of milliseconds: the browser counts in a Web Worker so the page never stalls on it.
 * Calls made in the same tick may be answered together.
 */
/**
 * Checks a value against a JSON Schema (draft 2020-12 unless the schema's `$schema` names an
 * older draft). The host backs it with a maintained library, loaded on first use, so the engine
 * keeps no dependency; the Agent's tool arguments and structured output go through the same one.
 */
export interface SchemaValidator {
  /**
   * Readable problems, each naming its place from `root` (`data.items[2].price must be >= 0`),
   * at most `maxProblems`; empty when the value fits. A schema the library cannot compile
   * yields `[]` when `lenient` (a tool whose schema we cannot read still runs), else one problem
   * saying why.
   */
  validate(request: SchemaCheck): Promise<string[]>
}

export interface SchemaCheck {
  value: unknown
  schema: unknown
  root: string
  maxProblems: number
  lenient: boolean
}

/**
 * Counts a text's tokens. Never more than the text's UTF-8 byte length (true of byte-level BPE
 * tokenizers, where each token is at least one byte, and of the characters/4 fallback): the run
 * budget relies on it to skip counting calls far below its limit (promptTokensCeiling).
 */
export type TokenEstimator = (text: string) => Promise<number>

export type { Usage }
