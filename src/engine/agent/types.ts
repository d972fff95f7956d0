/** Shapes shared by the agent loop and the Agent node executor. */
import type { GuardAlert, Usage } from '../events.ts'
import type { ChatMessage, Clock, LlmProvider, SchemaValidator, TokenEstimator, ToolSpec } from '../ports.ts'
import type { AgentProtection } from './protection.ts'
import type { CallSink } from '../callEvents.ts'
import type { ToolApprover } from '../approval.ts'

/** A tool the loop can run; the node executor builds one per configured tool. */
export interface AgentTool {
  /** What the model sees: name, description, JSON Schema of the arguments. */
  spec: ToolSpec
  /**
   * The loop's watchdog for this tool, in ms. The tool's own timeout (sandbox, HTTP) should be
   * the same or shorter; this one also covers tools that have none (node tools).
   */
  timeoutMs: number
  /**
   * What the tool's own description asks for when its config says nothing: 'ask' for MCP tools
   * whose annotations say `destructiveHint` (flow-control.md, "MCP tools and approval").
   */
  approvalDefault?: 'ask'
  /** Runs the tool with the parsed, schema-checked arguments; the text is the observation. */
  run(args: unknown, signal: AbortSignal): Promise<string>
  /**
   * `ask`: each call waits for a decision (the loop's `approve`) before it runs; a rejected call
   * is answered DECLINED_OBSERVATION. Absent or `never`: calls run without asking.
   */
  approval?: 'ask' | 'never'
}

export interface AgentEmit {
  /** Streams text into the node console. */
  chunk(text: string, channel?: 'output' | 'reasoning' | 'log'): void
  guard(alert: GuardAlert): void
  /** Reports each tool call once it ended (callEvents.ts); absent: not recorded. */
  call?: CallSink
}

export interface AgentLoopParams {
  provider: LlmProvider
  /** '' lets the provider use its default model. */
  model: string
  systemPrompt: string
  prompt: string
  tools: readonly AgentTool[]
  protection: AgentProtection
  clock: Clock
  estimateTokens: TokenEstimator
  /** Checks tool arguments against each tool's schema. */
  validator: SchemaValidator
  signal: AbortSignal
  emit: AgentEmit
  temperature?: number
  maxTokens?: number
  /** Decides calls of tools with `approval: 'ask'`; absent: every such call is declined. */
  approve?: ToolApprover
}

/**
 * Why the loop ended. `degenerate`: a reply kept repeating itself after the nudge (or the final
 * answer did); `stalled`: turns went nowhere (no text and no tool calls, or no tool calls and no
 * answer) after the nudge.
 */
export type AgentStopReason =
  'answer' | 'deadlock' | 'budget' | 'iterations' | 'degenerate' | 'stalled' | 'cancelled'

/** One tool call as the node output reports it. */
export interface AgentToolCallRecord {
  name: string
  /** The raw argument string the model sent. */
  args: string
  /** The tool result the model received. */
  observation: string
}

export interface AgentLoopResult {
  /** The answer; after a stop, the finalize answer or else the text gathered so far. */
  response: string
  /** Model calls of the tool loop (the finalize call is not counted). */
  iterations: number
  usage: Usage
  stopReason: AgentStopReason
  /** 'stopped' when a guard ended the loop (the response is then a partial answer). */
  status: 'success' | 'stopped'
  toolCalls: AgentToolCallRecord[]
  /** The conversation as sent to the provider, finalize call included. */
  messages: ChatMessage[]
}
