/** The loop's guard console lines, in the Agent's style (docs/guard.md). */

export function loopRepeatHintMessage(loopId: string, index: number): string {
  return `[Loop Guard] Iteration ${index} of loop "${loopId}" returned the same result as the one before. It runs once more; set "until" to stop when it is done.`
}

export function loopRepeatTripMessage(loopId: string, count: number): string {
  return `[Loop Deadlock Protection] Tripped: ${count} consecutive identical results from loop "${loopId}". Terminating loop to prevent token waste.`
}

export function loopMaxIterationsMessage(loopId: string, max: number): string {
  return `[Loop Max Iterations Reached] Loop "${loopId}" ran ${max} iterations without "until" holding.`
}
