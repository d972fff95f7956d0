/**
 * A harness for agent-loop tests: a scripted provider on a manual clock, recording tools, the
 * console and guard alerts, and a checker for the message-order rules strict providers enforce.
 */
import { createSchemaValidator } from '../../../../src/platform/schemaValidator.ts'
import { expect } from 'vitest'
import {
  resolveAgentProtection,
  runAgentLoop,
  type AgentLoopParams,
  type AgentProtection,
  type AgentTool,
  type ChatMessage,
  type GuardAlert,
} from '../../../../src/engine/run.ts'
import { ManualClock } from '../../../support/manualClock.ts'
import { ScriptedProvider, type ScriptStep } from '../../../support/scriptedProvider.ts'

export interface RecordingTool extends AgentTool {
  /** Arguments of every run, in order. */
  runs: unknown[]
  /** The signal each run received. */
  signals: AbortSignal[]
}

/** A tool whose behaviour is `impl`; `parameters` defaults to an open object schema. */
export function tool(
  name: string,
  impl: (args: unknown, signal: AbortSignal) => string | Promise<string>,
  options: { parameters?: Record<string, unknown>; timeoutMs?: number } = {},
): RecordingTool {
  const runs: unknown[] = []
  const signals: AbortSignal[] = []
  return {
    spec: { name, description: `The ${name} tool`, parameters: options.parameters ?? { type: 'object' } },
    timeoutMs: options.timeoutMs ?? 30_000,
    runs,
    signals,
    run: async (args, signal) => {
      runs.push(args)
      signals.push(signal)
      return impl(args, signal)
    },
  }
}

export interface HarnessOptions {
  tools?: AgentTool[]
  protection?: Partial<AgentProtection>
  systemPrompt?: string
  estimateTokens?: (text: string) => Promise<number>
}

export function harness(steps: ScriptStep[], options: HarnessOptions = {}) {
  const clock = new ManualClock()
  const provider = new ScriptedProvider(steps, { clock })
  const alerts: GuardAlert[] = []
  const console: Array<{ text: string; channel: string }> = []
  const controller = new AbortController()
  const params: AgentLoopParams = {
    provider,
    model: 'test-model',
    systemPrompt: options.systemPrompt ?? 'You are a careful agent.',
    prompt: 'How many orders are pending?',
    tools: options.tools ?? [],
    protection: resolveAgentProtection(options.protection ?? {}),
    clock,
    estimateTokens: options.estimateTokens ?? (async (text) => Math.ceil(text.length / 4)),
    validator: createSchemaValidator(),
    signal: controller.signal,
    emit: {
      chunk: (text, channel = 'output') => console.push({ text, channel }),
      guard: (alert) => alerts.push(alert),
    },
  }
  return {
    params,
    provider,
    clock,
    alerts,
    console,
    controller,
    run: () => runAgentLoop(params),
  }
}

/**
 * The rules OpenAI and Anthropic enforce: an assistant message with tool calls is followed
 * directly by exactly one tool message per call id (nothing in between, no strays), and no tool
 * message appears anywhere else.
 */
export function expectWellFormed(messages: readonly ChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ChatMessage
    if (message.role === 'tool')
      throw new Error(`tool message at ${i} does not follow an assistant tool_calls message`)
    if (message.role !== 'assistant' || !message.toolCalls || message.toolCalls.length === 0) continue
    const ids = message.toolCalls.map((call) => call.id)
    expect(new Set(ids).size, 'tool call ids are unique').toBe(ids.length)
    const results = messages.slice(i + 1, i + 1 + ids.length)
    expect(
      results.map((m) => (m.role === 'tool' ? m.toolCallId : `<${m.role}>`)).sort(),
      `results directly after message ${i}`,
    ).toEqual([...ids].sort())
    i += ids.length
  }
}

/** Checks every request the provider received. */
export function expectAllRequestsWellFormed(provider: ScriptedProvider): void {
  for (const request of provider.requests) expectWellFormed(request.messages)
}

export const call = (name: string, args: unknown = {}, id?: string) => ({
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
  ...(id === undefined ? {} : { id }),
})
