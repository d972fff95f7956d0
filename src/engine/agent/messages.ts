/**
 * Every text the guard layers show the model or the console (docs/guard.md). The spec fixes the
 * repeat, budget and iteration lines word for word; the cycle lines follow the same shape.
 */

function times(count: number): string {
  return count === 2 ? 'twice' : `${count} times`
}

/** Cycle name for messages: the tool names of one lap, in call order. */
export function cycleName(tools: readonly string[]): string {
  return tools.map((tool) => `"${tool}"`).join(' -> ')
}

/** The user message added after the tool results of a turn with a repeated call. */
export function repeatHintMessage(tool: string, count: number): string {
  return `[System Hint: You invoked tool "${tool}" ${times(count)} with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]`
}

/** The user message added after the tool results of a turn that completed a second lap. */
export function cycleHintMessage(tools: readonly string[], laps: number): string {
  return `[System Hint: You repeated the sequence of tool calls ${cycleName(tools)} ${times(laps)} with identical parameters and results. If polling or awaiting state change, continue; otherwise synthesize your final answer.]`
}

/** Console line of a repeat trip. */
export function repeatTripMessage(tool: string, count: number): string {
  return `[Agent Deadlock Protection] Tripped: ${count} consecutive identical calls to "${tool}". Terminating loop to prevent token waste.`
}

/** Console line of a cycle trip, naming the cycle. */
export function cycleTripMessage(tools: readonly string[], laps: number): string {
  return `[Agent Deadlock Protection] Tripped: ${laps} consecutive repetitions of the cycle ${cycleName(tools)}. Terminating loop to prevent token waste.`
}

/** The tool result a tripped call gets instead of running; `count` is the decision's count. */
export function deadlockObservation(count: number): string {
  return `Observation: Execution halted by Deadlock Breaker (${count} identical calls). Please synthesize conclusion immediately.`
}

/** The tool result of the calls of a turn that come after a tripped one. */
export const SKIPPED_AFTER_TRIP_OBSERVATION =
  'Observation: Skipped: the Deadlock Breaker halted the loop before this call ran.'

/** The tool result of calls that a stop (budget, cancel) left unrun. */
export const SKIPPED_AFTER_STOP_OBSERVATION =
  'Observation: Skipped: the agent loop stopped before this call ran.'

export function tooManyCallsObservation(limit: number): string {
  return `Observation: Skipped: at most ${limit} tool calls run per turn. Call fewer tools at once.`
}

export function budgetExceededMessage(total: number, budget: number): string {
  return `[Agent Token Budget Exceeded] Total ${total} tokens reached budget limit of ${budget}. Terminating loop.`
}

/** The before-call variant: the next call's prompt alone would cross what is left. */
export function budgetWouldExceedMessage(total: number, nextPrompt: number, budget: number): string {
  return `[Agent Token Budget Exceeded] Total ${total} tokens plus about ${nextPrompt} for the next call would exceed budget limit of ${budget}. Terminating loop.`
}

export const MAX_ITERATIONS_MESSAGE = '[Agent Max Iterations Reached] Synthesizing final answer...'

export function toolNotFoundObservation(tool: string): string {
  return `Observation: Error - Tool "${tool}" not found.`
}

export function toolErrorObservation(tool: string, message: string): string {
  return `Observation: Error executing tool "${tool}": ${message}`
}

export function invalidArgsObservation(tool: string, problems: readonly string[]): string {
  return `Observation: Error - Invalid arguments for tool "${tool}": ${problems.join('; ')}. Fix the arguments to match the tool's parameters schema.`
}

export function toolTimeoutMessage(tool: string, timeoutMs: number): string {
  return `Tool "${tool}" did not finish within ${timeoutMs} ms and was stopped.`
}

/** Console line of the watchdog when a tool is stopped for taking too long. */
export function watchdogMessage(tool: string, detail: string): string {
  return `[Agent Watchdog] Tool "${tool}" timed out: ${detail} The model was told and the loop continues.`
}

/** The tool result of calls left unrun because the token budget is spent. */
export const SKIPPED_AFTER_BUDGET_OBSERVATION = 'Observation: Skipped: the token budget is spent.'

/** The user message of the tools-disabled finalize call. */
export const FINALIZE_INSTRUCTION =
  'Tools are now disabled. Using only the information gathered so far, write your final answer.'

/** The tool result of a call that asked for approval and was refused (flow-control.md). */
export const DECLINED_OBSERVATION = 'Observation: The user declined this call.'
