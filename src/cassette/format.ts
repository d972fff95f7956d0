/**
 * The cassette file (`wardflow run --record`): every model reply and HTTP reply of a run, keyed
 * by the request that asked for it, and what the run produced (outputs, guard events), so
 * `--replay` plays the run with no network and `wardflow test` tells what changed.
 *
 * What is kept: the flow's request (provider id the node names, model, messages, tools, params)
 * and the reply's chunks; for HTTP the method, URL and body, and the reply's status, status text,
 * content type and body. What is never kept: API keys, request headers (they carry keys) and
 * other response headers. Code results are not recorded: the sandbox is deterministic and runs
 * again on replay.
 */
import type { ChatChunk, ChatRequest, RunEvent } from '../engine/index.ts'

export const CASSETTE_FORMAT = 'wardflow-cassette'
export const CASSETTE_VERSION = 1

/** A model request as the flow asked for it: the matching key of a model call. */
export interface ModelRequestKey {
  /** The provider id the node names ('' for the default provider). */
  provider: string
  model: string
  messages: ChatRequest['messages']
  tools?: ChatRequest['tools']
  toolChoice?: ChatRequest['toolChoice']
  temperature?: number
  maxTokens?: number
  responseFormat?: ChatRequest['responseFormat']
}

export interface HttpRequestKey {
  method: string
  url: string
  body?: string
}

export interface RecordedError {
  code: string
  message: string
}

export interface ModelCall {
  kind: 'model'
  request: ModelRequestKey
  /** The chunks as they streamed; the last is `done` unless the call failed or was cut short. */
  chunks: ChatChunk[]
  error?: RecordedError
  /** How the recorded provider took structured output (the request differs by it). */
  structuredOutput?: 'native' | 'prompt'
}

export interface HttpCall {
  kind: 'http'
  request: HttpRequestKey
  response?: { status: number; statusText: string; contentType?: string; body: string }
  error?: RecordedError
}

export type CassetteCall = ModelCall | HttpCall

/** A guard event without what changes from run to run (run id, time). */
export type RecordedGuard = Omit<Extract<RunEvent, { type: 'guard' }>, 'runId' | 'at' | 'type'>

/** What a run produced, compared by `wardflow test`. */
export interface RunExpectation {
  status: string
  /** The values of the flow's Output nodes, merged by key. */
  outputs: Record<string, unknown>
  guards: RecordedGuard[]
}

export interface Cassette {
  format: typeof CASSETTE_FORMAT
  version: number
  /** The run inputs it was recorded with (`--input`); `wardflow test` replays with them. */
  inputs: Record<string, string>
  calls: CassetteCall[]
  expected?: RunExpectation
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads a cassette's JSON, or says in one line why it is not one. */
export function parseCassette(
  json: unknown,
): { ok: true; cassette: Cassette } | { ok: false; reason: string } {
  if (!isObject(json) || json['format'] !== CASSETTE_FORMAT)
    return { ok: false, reason: `it is not a Wardflow cassette (no "format": "${CASSETTE_FORMAT}")` }
  if (typeof json['version'] !== 'number' || json['version'] > CASSETTE_VERSION)
    return { ok: false, reason: `its version ${String(json['version'])} is newer than this Wardflow reads` }
  const calls = json['calls']
  if (!Array.isArray(calls)) return { ok: false, reason: '"calls" is not a list' }
  for (const [i, call] of calls.entries()) {
    if (
      !isObject(call) ||
      (call['kind'] !== 'model' && call['kind'] !== 'http') ||
      !isObject(call['request'])
    )
      return { ok: false, reason: `calls[${i}] is not a model or http call with a request` }
    if (call['kind'] === 'model' && !Array.isArray(call['chunks']))
      return { ok: false, reason: `calls[${i}].chunks is not a list` }
  }
  const inputs = isObject(json['inputs']) ? json['inputs'] : {}
  const strings: Record<string, string> = {}
  for (const [key, value] of Object.entries(inputs)) if (typeof value === 'string') strings[key] = value
  const expected = isObject(json['expected']) ? (json['expected'] as unknown as RunExpectation) : undefined
  return {
    ok: true,
    cassette: {
      format: CASSETTE_FORMAT,
      version: json['version'],
      inputs: strings,
      calls: calls as CassetteCall[],
      ...(expected === undefined ? {} : { expected }),
    },
  }
}
