/**
 * Token counts with a real tokenizer (gpt-tokenizer), for providers that report no usage and
 * for the agent's before-call budget check. The encoding loads lazily: it is a large table whose
 * parsing is a ~90 ms task, and counting a 20,000-token reply takes 70-300 ms. That is why the
 * browser runs this module inside a Web Worker (tokenWorker.ts); the CLI and tests count in-thread
 * through loadTokenEstimator.
 */
import type { TokenEstimator } from '../engine/index.ts'

/** Counts tokens synchronously: the tokenizer itself, for the thread that owns it. */
export type TokenCounter = (text: string) => number

let loading: Promise<TokenCounter> | undefined

/**
 * Loads o200k_base (the encoding of current OpenAI models; for other vendors it is an estimate,
 * which is why figures from it are marked `estimated`). Loaded once; later calls share it.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
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

let inThread: Promise<TokenEstimator> | undefined

/** The engine's estimator counting in this thread (the CLI, tests, and the worker's fallback). */
export function loadTokenEstimator(): Promise<TokenEstimator> {
  inThread ??= loadTokenCounter().then((count) => async (text: string) => count(text))
  inThread.catch(() => {
    inThread = undefined
  })
  return inThread
}
