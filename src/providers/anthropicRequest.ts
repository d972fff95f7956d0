/** Builds Anthropic Messages API request bodies from the engine's ChatRequest. */
import { ANTHROPIC_MAX_TEMPERATURE, ANTHROPIC_MAX_TOKENS } from '../defaults.ts'
import type { ChatMessage, ChatRequest, ResponseFormat } from '../engine/index.ts'

/** The key a non-object schema is wrapped under: a tool's input must be an object. */
export const WRAPPED_VALUE_KEY = 'value'

/** How the structured-output tool reads back: its name, and whether the value was wrapped. */
export interface StructuredTool {
  name: string
  wrapped: boolean
}

export function structuredToolOf(format: ResponseFormat | undefined): StructuredTool | undefined {
  if (!format) return undefined
  return { name: format.name, wrapped: format.schema['type'] !== 'object' }
}

/** Anthropic's native structured output: one tool whose input is the data, forced by tool_choice. */
function structuredToolSpec(format: ResponseFormat): Record<string, unknown> {
  const wrapped = format.schema['type'] !== 'object'
  return {
    name: format.name,
    description: 'Give the answer as this tool call; its input is the structured output.',
    input_schema: wrapped
      ? { type: 'object', properties: { [WRAPPED_VALUE_KEY]: format.schema }, required: [WRAPPED_VALUE_KEY] }
      : format.schema,
  }
}

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicBlock[]
}

/**
 * Tool-use input must be an object. A model that sent unparseable arguments keeps them as text
 * under `raw_arguments`, so the history stays truthful instead of pretending it sent `{}`.
 */
function toInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {}
  try {
    const value = JSON.parse(args) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>
  } catch {
    // Fall through.
  }
  return { raw_arguments: args }
}

function blocksOf(message: Exclude<ChatMessage, { role: 'system' }>, withTools: boolean): AnthropicBlock[] {
  switch (message.role) {
    case 'user':
      return [{ type: 'text', text: message.content }]
    case 'assistant': {
      const blocks: AnthropicBlock[] = message.content === '' ? [] : [{ type: 'text', text: message.content }]
      for (const call of message.toolCalls ?? []) {
        blocks.push(
          withTools
            ? { type: 'tool_use', id: call.id, name: call.name, input: toInput(call.arguments) }
            : { type: 'text', text: `[called tool ${call.name} with ${call.arguments}]` },
        )
      }
      return blocks
    }
    case 'tool':
      return [
        withTools
          ? { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }
          : { type: 'text', text: `[result of tool ${message.name}] ${message.content}` },
      ]
  }
}

function rank(block: AnthropicBlock): number {
  return block.type === 'tool_result' ? 0 : 1
}

/**
 * Maps messages: system prompts go apart; consecutive tool results become ONE user message of
 * tool_result blocks (a following user text joins it, after the results, as Anthropic requires);
 * same-role neighbours merge; empty text blocks, which Anthropic refuses, are dropped. Without
 * tools in the request, tool blocks become text, because Anthropic refuses tool blocks then.
 */
export function toAnthropicMessages(
  messages: readonly ChatMessage[],
  withTools: boolean,
): { system: string; messages: AnthropicMessage[] } {
  const system: string[] = []
  const out: AnthropicMessage[] = []
  for (const message of messages) {
    if (message.role === 'system') {
      if (message.content !== '') system.push(message.content)
      continue
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const blocks = blocksOf(message, withTools).filter(
      (block) => block.type !== 'text' || block.text.trim() !== '',
    )
    if (blocks.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === role) last.content.push(...blocks)
    else out.push({ role, content: blocks })
  }
  // Anthropic wants tool_result blocks first in their user message; a stable sort keeps the rest.
  for (const message of out) {
    if (message.role === 'user') message.content.sort((a, b) => rank(a) - rank(b))
  }
  return { system: system.join('\n\n'), messages: out }
}

/** Builds the JSON body of one call. */
export function buildAnthropicBody(
  request: ChatRequest,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  const tools = request.tools ?? []
  const format = request.responseFormat
  const withTools = tools.length > 0
  const { system, messages } = toAnthropicMessages(request.messages, withTools)
  const body: Record<string, unknown> = {
    model,
    max_tokens: request.maxTokens ?? ANTHROPIC_MAX_TOKENS,
    messages,
    stream,
  }
  if (system !== '') body.system = system
  if (withTools) {
    body.tools = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }))
    // History may hold tool blocks, which need `tools` defined; 'none' keeps them but forbids calls.
    if (request.toolChoice === 'none') body.tool_choice = { type: 'none' }
  }
  if (format) {
    body.tools = [...((body.tools as unknown[] | undefined) ?? []), structuredToolSpec(format)]
    body.tool_choice = { type: 'tool', name: format.name }
  }
  if (request.temperature !== undefined)
    body.temperature = Math.min(request.temperature, ANTHROPIC_MAX_TEMPERATURE)
  return body
}
