/** Token accounting for the agent loop: provider usage when reported, else a tokenizer estimate. */
import { TOKEN_ESTIMATE_PER_MESSAGE, TOKEN_ESTIMATE_REPLY_PRIMING } from '../../defaults.ts'
import type { Usage } from '../events.ts'
import type { ChatMessage, ChatRequest, ChatResult, ReportedUsage, TokenEstimator } from '../ports.ts'

/** A provider's reported counts as the engine's Usage (cached and reasoning kept when reported). */
export function reportedUsage(reported: ReportedUsage): Usage {
  const { prompt, completion, cachedPrompt, reasoning } = reported
  const usage: Usage = { prompt, completion, total: prompt + completion, estimated: false }
  if (cachedPrompt !== undefined) usage.cachedPromptTokens = cachedPrompt
  if (reasoning !== undefined) usage.reasoningTokens = reasoning
  return usage
}

function messageText(message: ChatMessage): string {
  if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
    return message.content + message.toolCalls.map((call) => `${call.name}(${call.arguments})`).join('\n')
  }
  return message.content
}

/**
 * A ceiling on what estimatePromptTokens can return, without counting: a TokenEstimator never
 * counts more tokens than the text has UTF-8 bytes (ports.ts), and one UTF-16 unit is at most 3
 * bytes. Lets the run budget skip the tokenizer while a call is nowhere near a limit.
 */
export function promptTokensCeiling(request: ChatRequest): number {
  let units = 0
  for (const message of request.messages) units += messageText(message).length
  if (request.tools && request.tools.length > 0) units += JSON.stringify(request.tools).length
  return TOKEN_ESTIMATE_REPLY_PRIMING + TOKEN_ESTIMATE_PER_MESSAGE * request.messages.length + 3 * units
}

/** Estimated prompt tokens of a request: every message, its tool calls, and the tool specs sent. */
export async function estimatePromptTokens(request: ChatRequest, estimate: TokenEstimator): Promise<number> {
  // Asked all at once so an estimator that counts elsewhere answers them in one round trip.
  const texts = request.messages.map(messageText)
  if (request.tools && request.tools.length > 0) texts.push(JSON.stringify(request.tools))
  const counts = await Promise.all(texts.map(estimate))
  let total = TOKEN_ESTIMATE_REPLY_PRIMING + TOKEN_ESTIMATE_PER_MESSAGE * request.messages.length
  for (const count of counts) total += count
  return total
}

/** Usage of one call: as reported, or estimated (and marked so) when the provider gave none. */
export async function usageOfCall(
  request: ChatRequest,
  result: ChatResult,
  estimate: TokenEstimator,
): Promise<Usage> {
  if (result.usage) {
    return reportedUsage(result.usage)
  }
  const calls = result.toolCalls.map((call) => `${call.name}(${call.arguments})`).join('\n')
  const [prompt, completion] = await Promise.all([
    estimatePromptTokens(request, estimate),
    estimate(result.reasoning + result.text + calls),
  ])
  return { prompt, completion, total: prompt + completion, estimated: true }
}
