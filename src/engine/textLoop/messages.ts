/** Every text the degenerate-text guard and the turn watch show the model or the console. */

/** The console line of a degenerate-text trip (LLM and Agent nodes). */
export function textLoopTripMessage(quote: string, count: number): string {
  return `[Degenerate Text Protection] Tripped: the reply repeated "${quote}" ${count} times close together. Stream aborted to prevent token waste.`
}

/** What an Agent's model is told (and the console shows) the first time its reply degenerates. */
export function textLoopHintMessage(quote: string): string {
  return `[System Hint: Your last reply kept repeating the same text ("${quote}") and was cut off. Do not repeat yourself: continue with a tool call or write your final answer.]`
}
