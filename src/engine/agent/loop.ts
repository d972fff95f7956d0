/**
 * The guarded ReAct loop (docs/guard.md). Each iteration is one streamed model call; the tool
 * calls of a turn run in order, each checked by the loop guard first; every call id gets exactly
 * one tool result; hints go after all results of the turn; a trip, the token budget or the
 * iteration cap end the loop, followed by one tools-disabled finalize call when allowed and
 * affordable. The AbortSignal is checked at every step. Pure: host abilities arrive as params.
 */
import {
  AGENT_CONSOLE_PREVIEW_CHARS,
  AGENT_MAX_TOOL_CALLS_PER_TURN,
  AGENT_OBSERVATION_MAX_CHARS,
} from '../../defaults.ts'
import { FlowError } from '../errors.ts'
import { addUsage, emptyUsage, type Usage } from '../events.ts'
import type { ChatMessage, ChatRequest, ChatResult, ToolCall } from '../ports.ts'
import { createTextLoopDetector, type TextLoopTrip } from '../textLoop/detector.ts'
import { textLoopHintMessage, textLoopTripMessage } from '../textLoop/messages.ts'
import { cutReplyResult, readChatStream } from '../textLoop/stream.ts'
import { createLoopGuard, type LoopGuard } from './loopGuard.ts'
import {
  budgetExceededMessage,
  budgetWouldExceedMessage,
  deadlockObservation,
  FINALIZE_INSTRUCTION,
  MAX_ITERATIONS_MESSAGE,
  SKIPPED_AFTER_BUDGET_OBSERVATION,
  SKIPPED_AFTER_STOP_OBSERVATION,
  SKIPPED_AFTER_TRIP_OBSERVATION,
  tooManyCallsObservation,
} from './messages.ts'
import { estimatePromptTokens, usageOfCall } from './tokens.ts'
import { runToolCall, type ToolRunContext } from './toolRunner.ts'
import { observeToolCall } from '../callEvents.ts'
import { createTurnWatch, type TurnWatch } from './turnWatch.ts'
import type {
  AgentLoopParams,
  AgentLoopResult,
  AgentStopReason,
  AgentTool,
  AgentToolCallRecord,
} from './types.ts'

type TurnOutcome = 'continue' | 'deadlock' | 'cancelled'

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > AGENT_CONSOLE_PREVIEW_CHARS ? `${flat.slice(0, AGENT_CONSOLE_PREVIEW_CHARS)}…` : flat
}

function capObservation(text: string): string {
  if (text.length <= AGENT_OBSERVATION_MAX_CHARS) return text
  const cut = text.length - AGENT_OBSERVATION_MAX_CHARS
  return `${text.slice(0, AGENT_OBSERVATION_MAX_CHARS)}\n[Observation truncated: ${cut} more characters]`
}

/**
 * Runs the agent loop to its end. Resolves with the answer (or the partial answer after a stop)
 * and never rejects for a guard stop or a Stop of the run (`stopReason: 'cancelled'`); provider
 * failures reject with their FlowError.
 */
export function runAgentLoop(params: AgentLoopParams): Promise<AgentLoopResult> {
  return new AgentRun(params).run()
}

class AgentRun {
  private readonly messages: ChatMessage[] = []
  private readonly records: AgentToolCallRecord[] = []
  private readonly texts: string[] = []
  private readonly usedIds = new Set<string>()
  private readonly guard: LoopGuard
  private readonly toolContext: ToolRunContext
  private readonly turns: TurnWatch = createTurnWatch()
  /** The degenerate-text nudge is given once per run; the next degenerate reply trips. */
  private textLoopHinted = false
  private usage: Usage = emptyUsage()
  private iterations = 0
  private answer: string | undefined
  private finalText: string | undefined

  constructor(private readonly p: AgentLoopParams) {
    const pr = p.protection
    this.guard = createLoopGuard({
      enabled: pr.loopDetectionEnabled,
      tripAt: pr.loopDetectionThreshold,
      progressAware: pr.progressAware,
      cycleDetection: pr.cycleDetection,
    })
    const tools = new Map<string, AgentTool>(p.tools.map((tool) => [tool.spec.name, tool]))
    this.toolContext = { tools, clock: p.clock, validator: p.validator, signal: p.signal, emit: p.emit }
    if (p.approve) this.toolContext.approve = p.approve
    if (p.systemPrompt.trim() !== '') this.messages.push({ role: 'system', content: p.systemPrompt })
    this.messages.push({ role: 'user', content: p.prompt })
  }

  async run(): Promise<AgentLoopResult> {
    let stop: AgentStopReason
    try {
      stop = await this.loop()
      if (stop !== 'answer' && stop !== 'cancelled' && !(await this.finalize(stop))) stop = 'degenerate'
    } catch (error) {
      if (!this.p.signal.aborted) throw error
      stop = 'cancelled'
    }
    if (this.p.signal.aborted) stop = 'cancelled'
    const partial = this.texts.filter((t) => t.trim() !== '').join('\n\n')
    return {
      response: stop === 'answer' ? (this.answer ?? '') : (this.finalText ?? this.answer ?? partial),
      iterations: this.iterations,
      usage: this.usage,
      stopReason: stop,
      status: stop === 'answer' ? 'success' : 'stopped',
      toolCalls: this.records,
      messages: this.messages,
    }
  }

  private async loop(): Promise<AgentStopReason> {
    const { protection, emit, signal } = this.p
    for (;;) {
      if (signal.aborted) return 'cancelled'
      if (this.iterations >= protection.maxIterations) {
        emit.guard({
          layer: 'iterations',
          level: 'trip',
          count: this.iterations,
          message: MAX_ITERATIONS_MESSAGE,
        })
        return 'iterations'
      }
      const request = this.request(this.messages, true)
      if (!(await this.affordable(request))) return 'budget'
      const { result: reply, trip } = await this.call(request)
      this.iterations++
      const calls = this.withUniqueIds(reply.toolCalls)
      // A reply with neither text nor tool calls is not an answer; strict providers also refuse
      // an empty assistant message, so it stays out of the conversation.
      const empty = calls.length === 0 && reply.text.trim() === '' && !trip
      const answers = calls.length === 0 && !empty && !trip
      if (calls.length > 0) this.messages.push({ role: 'assistant', content: reply.text, toolCalls: calls })
      else if (!empty) this.messages.push({ role: 'assistant', content: reply.text })
      if (answers) this.answer = reply.text
      if (this.budgetSpent()) {
        for (const call of calls) this.addResult(call, SKIPPED_AFTER_BUDGET_OBSERVATION)
        return 'budget'
      }
      if (trip && !this.degenerateHint(trip)) return 'degenerate'
      const watch = this.turns.observe({ toolCalls: calls.length, empty, answers })
      if (watch.action === 'trip') {
        const { detector, count, message } = watch
        emit.guard({ layer: 'loop', level: 'trip', detector, count, message })
        return 'stalled'
      }
      if (watch.action === 'hint') {
        const { detector, count, message } = watch
        emit.guard({ layer: 'loop', level: 'hint', detector, count, message })
        this.tellModel(message)
      }
      if (answers) return 'answer'
      if (calls.length === 0) continue
      const outcome = await this.turn(calls)
      if (outcome !== 'continue') return outcome
    }
  }

  /**
   * The first degenerate reply of the run: the model is told and the loop goes on (true). Any
   * later one trips (false): the text so far is kept and the loop ends.
   */
  private degenerateHint(trip: TextLoopTrip): boolean {
    const { emit } = this.p
    if (this.textLoopHinted) {
      const message = textLoopTripMessage(trip.quote, trip.count)
      emit.guard({ layer: 'loop', level: 'trip', detector: 'content', count: trip.count, message })
      return false
    }
    this.textLoopHinted = true
    const message = textLoopHintMessage(trip.quote)
    emit.guard({ layer: 'loop', level: 'hint', detector: 'content', count: trip.count, message })
    this.tellModel(message)
    return true
  }

  /** A user message for the model, merged into the last one when that is a user message too. */
  private tellModel(text: string): void {
    const last = this.messages[this.messages.length - 1]
    if (last?.role === 'user')
      this.messages[this.messages.length - 1] = { role: 'user', content: `${last.content}\n\n${text}` }
    else this.messages.push({ role: 'user', content: text })
  }

  /** Runs the tool calls of one assistant turn, in order; every call gets exactly one result. */
  private async turn(calls: readonly ToolCall[]): Promise<TurnOutcome> {
    const { emit, signal } = this.p
    const hints: string[] = []
    let stop: 'deadlock' | 'cancelled' | undefined
    for (const [index, call] of calls.entries()) {
      if (stop !== undefined) {
        this.addResult(
          call,
          stop === 'deadlock' ? SKIPPED_AFTER_TRIP_OBSERVATION : SKIPPED_AFTER_STOP_OBSERVATION,
        )
        continue
      }
      if (index >= AGENT_MAX_TOOL_CALLS_PER_TURN) {
        this.addResult(call, tooManyCallsObservation(AGENT_MAX_TOOL_CALLS_PER_TURN))
        continue
      }
      if (signal.aborted) {
        stop = 'cancelled'
        this.addResult(call, SKIPPED_AFTER_STOP_OBSERVATION)
        continue
      }
      const guardCall = { name: call.name, args: call.arguments }
      const decision = this.guard.check(guardCall)
      if (decision.action === 'trip') {
        const { detector, count, message } = decision
        emit.guard({ layer: 'loop', level: 'trip', detector, tool: call.name, count, message })
        this.addResult(call, deadlockObservation(count))
        stop = 'deadlock'
        continue
      }
      emit.chunk(`\n→ ${call.name} ${preview(call.arguments)}\n`, 'log')
      let observation: string
      try {
        observation = capObservation(
          await observeToolCall(call, this.p.clock, emit.call, () => runToolCall(call, this.toolContext)),
        )
      } catch (error) {
        if (!signal.aborted) throw error
        stop = 'cancelled'
        this.addResult(call, SKIPPED_AFTER_STOP_OBSERVATION)
        continue
      }
      const progressed = this.guard.record(guardCall, observation)
      this.addResult(call, observation)
      if (decision.action === 'hint' && !progressed) {
        const { detector, count, message } = decision
        emit.guard({ layer: 'loop', level: 'hint', detector, tool: call.name, count, message })
        hints.push(message)
      }
    }
    // After the last tool result, never between: strict providers reject any other order.
    if (hints.length > 0) this.messages.push({ role: 'user', content: hints.join('\n\n') })
    return stop ?? 'continue'
  }

  /**
   * One last call with tools disabled, when the stop allows it and the budget affords it.
   * False when that reply degenerated (it was cut and tripped); a degenerate stop gets none.
   */
  private async finalize(stop: AgentStopReason): Promise<boolean> {
    const { protection, signal } = this.p
    const wanted =
      stop === 'iterations' ||
      stop === 'stalled' ||
      (protection.finalizeAfterStop && (stop === 'deadlock' || stop === 'budget'))
    if (!wanted || signal.aborted) return true
    if (protection.maxTokenBudget > 0 && this.usage.total >= protection.maxTokenBudget) return true
    const messages = [...this.messages]
    const last = messages[messages.length - 1]
    if (last?.role === 'user')
      messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${FINALIZE_INSTRUCTION}` }
    else messages.push({ role: 'user', content: FINALIZE_INSTRUCTION })
    const request = this.request(messages, false)
    // A before-call budget stop was just reported; the finalize check says nothing new then.
    if (!(await this.affordable(request, stop !== 'budget'))) return true
    this.messages.splice(0, this.messages.length, ...messages)
    this.p.emit.chunk('\n', 'log')
    const { result: reply, trip } = await this.call(request)
    // A provider that answers with tool calls anyway gets none run: only its text counts.
    this.messages.push({ role: 'assistant', content: reply.text })
    if (reply.text.trim() !== '') this.finalText = reply.text
    if (!trip) return true
    const message = textLoopTripMessage(trip.quote, trip.count)
    this.p.emit.guard({ layer: 'loop', level: 'trip', detector: 'content', count: trip.count, message })
    return false
  }

  private request(messages: readonly ChatMessage[], withTools: boolean): ChatRequest {
    const { model, tools, temperature, maxTokens } = this.p
    const request: ChatRequest = { model, messages: [...messages] }
    if (!withTools) request.toolChoice = 'none'
    else if (tools.length > 0) {
      request.tools = tools.map((tool) => tool.spec)
      request.toolChoice = 'auto'
    }
    if (temperature !== undefined) request.temperature = temperature
    if (maxTokens !== undefined) request.maxTokens = maxTokens
    return request
  }

  /** Before a call: false (with a budget alert) when its prompt alone would cross what is left. */
  private async affordable(request: ChatRequest, report = true): Promise<boolean> {
    const budget = this.p.protection.maxTokenBudget
    if (budget <= 0) return true
    const next = await estimatePromptTokens(request, this.p.estimateTokens)
    const total = this.usage.total
    if (total + next <= budget) return true
    if (!report) return false
    const message = budgetWouldExceedMessage(total, next, budget)
    this.p.emit.guard({ layer: 'budget', level: 'trip', total, budget, phase: 'before-call', message })
    return false
  }

  /** After a call: true (with a budget alert) when the total reached the budget. */
  private budgetSpent(): boolean {
    const budget = this.p.protection.maxTokenBudget
    const total = this.usage.total
    if (budget <= 0 || total < budget) return false
    const message = budgetExceededMessage(total, budget)
    this.p.emit.guard({ layer: 'budget', level: 'trip', total, budget, phase: 'after-call', message })
    return true
  }

  /**
   * One streamed model call: text and reasoning go to the console as they arrive, watched by
   * the degenerate-text detector; `trip` is set when it cut the reply (its text so far is kept).
   */
  private async call(request: ChatRequest): Promise<{ result: ChatResult; trip?: TextLoopTrip }> {
    const { provider, signal, emit, protection } = this.p
    const detector = protection.textLoopDetection ? createTextLoopDetector() : undefined
    const reply = await readChatStream(provider.chat(request, signal), detector, {
      text: (text) => emit.chunk(text, 'output'),
      reasoning: (text) => emit.chunk(text, 'reasoning'),
    })
    const trip = reply.trip
    const result = trip ? cutReplyResult(reply, request.model) : reply.result
    if (!result)
      throw new FlowError('PROVIDER_BAD_RESPONSE', 'The provider ended the reply before it was complete.')
    if (!reply.streamedText && result.text !== '') emit.chunk(result.text, 'output')
    this.usage = addUsage(this.usage, await usageOfCall(request, result, this.p.estimateTokens))
    this.texts.push(result.text)
    return trip ? { result, trip } : { result }
  }

  /** Ids the conversation can rely on: never empty, never reused. */
  private withUniqueIds(calls: readonly ToolCall[]): ToolCall[] {
    return calls.map((call, index) => {
      let id = call.id.trim() === '' ? `call_${this.iterations}_${index}` : call.id
      for (let n = 2; this.usedIds.has(id); n++) id = `${call.id || 'call'}_${this.iterations}_${index}_${n}`
      this.usedIds.add(id)
      return id === call.id ? call : { ...call, id }
    })
  }

  private addResult(call: ToolCall, observation: string): void {
    this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: observation })
    this.records.push({ name: call.name, args: call.arguments, observation })
    this.p.emit.chunk(`← ${preview(observation)}\n`, 'log')
  }
}
