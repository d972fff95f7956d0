/** Token accounting for the agent loop: provider usage when reported, else a tokenizer estimate. */
import { TOKEN_ESTIMATE_PER_MESSAGE, TOKEN_ESTIMATE_REPLY_PRIMING } from '../../defaults.ts'
import type { Usage } from '../events.ts'
import type { ChatMessage, ChatRequest, ChatResult, TokenEstimator } from '../ports.ts'

function messageText(message: ChatMessage): string {
  if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
    return message.content + message.toolCalls.map((call) => `${call.name}(${call.arguments})`).join('\n')
  }
  return message.content
}

/** Estimated prompt tokens of a request: every message, its tool calls, and the tool specs sent. */
export function estimatePromptTokens(request: ChatRequest, estimate: TokenEstimator): number {
  let total = TOKEN_ESTIMATE_REPLY_PRIMING
  for (const message of request.messages) total += TOKEN_ESTIMATE_PER_MESSAGE + estimate(messageText(message))
  if (request.tools && request.tools.length > 0) total += estimate(JSON.stringify(request.tools))
  return total
}

/** Usage of one call: as reported, or estimated (and marked so) when the provider gave none. */
export function usageOfCall(request: ChatRequest, result: ChatResult, estimate: TokenEstimator): Usage {
  if (result.usage) {
    const { prompt, completion } = result.usage
    return { prompt, completion, total: prompt + completion, estimated: false }
  }
  const prompt = estimatePromptTokens(request, estimate)
  const calls = result.toolCalls.map((call) => `${call.name}(${call.arguments})`).join('\n')
  const completion = estimate(result.reasoning + result.text + calls)
  return { prompt, completion, total: prompt + completion, estimated: true }
}
