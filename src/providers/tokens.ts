/**
 * Token estimates with a real tokenizer (gpt-tokenizer), for providers that report no usage and
 * for the agent's before-call budget check. The encoding loads lazily: it is a large table.
 */
import { TOKEN_ESTIMATE_PER_MESSAGE, TOKEN_ESTIMATE_REPLY_PRIMING } from '../defaults.ts'
import type { ChatMessage, ChatRequest, TokenEstimator } from '../engine/index.ts'

let loading: Promise<TokenEstimator> | undefined

/**
 * Loads o200k_base (the encoding of current OpenAI models; for other vendors it is an estimate,
 * which is why figures from it are marked `estimated`). Loaded once; later calls share it.
 */
export function loadTokenEstimator(): Promise<TokenEstimator> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((encoding) => {
    // Text from models and people may contain "<|endoftext|>" and the like: count it as text
    // instead of throwing, as the library does by default.
    const options = { disallowedSpecial: new Set<string>() }
    return (text: string) => (text === '' ? 0 : encoding.countTokens(text, options))
  })
  loading.catch(() => {
    loading = undefined
  })
  return loading
}

/** Tokens of a conversation: each message's text plus a fixed per-message overhead. */
export function estimateMessagesTokens(messages: readonly ChatMessage[], estimate: TokenEstimator): number {
  let total = TOKEN_ESTIMATE_REPLY_PRIMING
  for (const message of messages) {
    total += TOKEN_ESTIMATE_PER_MESSAGE + estimate(message.content)
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) total += estimate(call.name) + estimate(call.arguments)
    }
    if (message.role === 'tool') total += estimate(message.name)
  }
  return total
}

/** Tokens of a whole request's prompt: messages plus the tool definitions sent with them. */
export function estimateRequestTokens(request: ChatRequest, estimate: TokenEstimator): number {
  let total = estimateMessagesTokens(request.messages, estimate)
  if (request.toolChoice !== 'none') {
    for (const tool of request.tools ?? []) {
      total += estimate(tool.name) + estimate(tool.description) + estimate(JSON.stringify(tool.parameters))
    }
  }
  return total
}
