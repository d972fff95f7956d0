/**
 * A saved run as a cassette: the run's `modelCall` events turned into the model calls
 * `wardflow run --record` would have written, keyed the same way (key.ts), with what the run
 * produced, so `wardflow run --replay` and `wardflow test` play a browser run with no network.
 *
 * What a record cannot give: HTTP replies (the HTTP node and HTTP tools keep only what they
 * made of them), MCP tool results and knowledge searches (the CLI needs --mcp / --knowledge),
 * the calls of loop iterations the record left out, and the exact key of calls saved before
 * events kept `replay` (their tools in full, tool choice and structured format): such a call is
 * keyed from what the event has, so a replay of it may miss. Code runs again on replay.
 */
import type { ChatChunk, ChatRequest, ModelCallEvent, RunEvent } from '../engine/index.ts'
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette, type ModelCall } from './format.ts'
import { modelRequestKey } from './key.ts'
import { OutcomeCollector } from './outcome.ts'

export interface RunForCassette {
  events: readonly RunEvent[]
  /** The run's inputs (what overrode Input node values). */
  inputs: Readonly<Record<string, string>>
  /** Whether a node of the run's flow is an Output node (what `expected.outputs` gathers). */
  isOutputNode: (nodeId: string) => boolean
  /**
   * The provider id a node names, for events saved before they said so (`replay` absent);
   * '' or undefined: the default provider.
   */
  providerOf?: (nodeId: string) => string | undefined
}

/** What the converter could not make exact, so the caller can say so. */
export interface CassetteFromRun {
  cassette: Cassette
  /** Model calls saved before events kept their full key: their replay may miss. */
  inexactCalls: number
}

// The code a recorded failure carries; its wording is not in the event, only the code.
const failedMessage = (code: string): string => `the recorded call failed (${code})`

/** One `modelCall` event as the call the recorder would have written. */
function modelCallOf(event: ModelCallEvent, providerOf?: RunForCassette['providerOf']): ModelCall {
  const replay = event.replay
  const request: ChatRequest = {
    model: event.model,
    messages: event.request.messages,
    ...(replay?.tools ? { tools: replay.tools } : {}),
    ...(replay?.toolChoice ? { toolChoice: replay.toolChoice } : {}),
    ...(event.request.temperature === undefined ? {} : { temperature: event.request.temperature }),
    ...(event.request.maxTokens === undefined ? {} : { maxTokens: event.request.maxTokens }),
    ...(replay?.responseFormat ? { responseFormat: replay.responseFormat } : {}),
  }
  const providerId = replay?.providerId ?? providerOf?.(event.nodeId) ?? ''
  const text = event.reply?.text ?? ''
  const reasoning = replay?.reasoning ?? ''
  const chunks: ChatChunk[] = []
  if (reasoning !== '') chunks.push({ type: 'reasoning', text: reasoning })
  if (text !== '') chunks.push({ type: 'text', text })
  const call: ModelCall = {
    kind: 'model',
    request: modelRequestKey(providerId, request),
    chunks,
    ...(replay?.structuredOutput ? { structuredOutput: replay.structuredOutput } : {}),
  }
  if (event.error === undefined) {
    chunks.push({
      type: 'done',
      result: {
        text,
        reasoning,
        toolCalls: event.reply?.toolCalls ?? [],
        ...(event.usage ? { usage: { ...event.usage } } : {}),
        finishReason: event.finishReason ?? 'stop',
        model: event.responseModel ?? event.model,
      },
    })
  } else if (event.error !== 'INCOMPLETE') {
    // INCOMPLETE: the node stopped reading (a degenerate reply cut short); the recorder saw no
    // error then either, only the chunks so far.
    call.error = { code: event.error, message: failedMessage(event.error) }
  }
  return call
}

/** The cassette of a saved run's events. */
export function cassetteFromRun(run: RunForCassette): CassetteFromRun {
  const outcome = new OutcomeCollector(run.isOutputNode)
  const calls: ModelCallEvent[] = []
  for (const event of run.events) {
    outcome.push(event)
    // A call the run's budget refused was never made, so the recorder never saw it.
    if (event.type === 'modelCall' && event.error !== 'RUN_BUDGET') calls.push(event)
  }
  // Events go out when a call ends; the recorder takes a call's slot when it starts, and
  // identical requests replay in that order.
  const ordered = calls
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.startedAt - b.event.startedAt || a.index - b.index)
  return {
    cassette: {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      inputs: { ...run.inputs },
      calls: ordered.map(({ event }) => modelCallOf(event, run.providerOf)),
      expected: outcome.expectation(),
    },
    inexactCalls: calls.filter((event) => event.replay === undefined).length,
  }
}
