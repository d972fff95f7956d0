/**
 * Agent turns that go nowhere (docs/guard.md, "Turns that go nowhere"): replies with neither
 * text nor tool calls (or reasoning only), and tool-less replies that do not end the loop (a
 * reply the degenerate-text guard cut off). `hintAt` of them in a row get one nudge; the next
 * one ends the loop, which then asks for a tools-disabled final answer. A reply with a tool call
 * (or one that answers) ends the streak. Pure bookkeeping, like the loop guard.
 */
import { AGENT_NOWHERE_HINT_AT, AGENT_NOWHERE_TRIP_AT } from '../../defaults.ts'

/** `empty`: every turn of the streak was empty; `monologue`: some had text but no tool call. */
export type NowhereDetector = 'empty' | 'monologue'

export type TurnDecision =
  | { action: 'continue' }
  | { action: 'hint' | 'trip'; detector: NowhereDetector; count: number; message: string }

export interface TurnOutline {
  toolCalls: number
  /** No text (whitespace only), whether or not it reasoned. */
  empty: boolean
  /** The reply answers, so the loop ends with it. */
  answers: boolean
}

export interface TurnWatch {
  /** Reports one model reply of the loop; says whether to go on, nudge, or stop. */
  observe(turn: TurnOutline): TurnDecision
}

export function emptyTurnsHintMessage(count: number): string {
  return `[System Hint: Your last ${count} replies had neither text nor tool calls. Call a tool or write your final answer.]`
}

export function emptyTurnsTripMessage(count: number): string {
  return `[Agent Empty Turns] ${count} replies in a row had neither text nor tool calls. Asking for a final answer without tools.`
}

export function monologueHintMessage(count: number): string {
  return `[System Hint: Your last ${count} replies called no tool and gave no answer. Call a tool or write your final answer.]`
}

export function monologueTripMessage(count: number): string {
  return `[Agent Monologue] ${count} replies in a row called no tool and gave no answer. Asking for a final answer without tools.`
}

const CONTINUE: TurnDecision = { action: 'continue' }

export function createTurnWatch(hintAt = AGENT_NOWHERE_HINT_AT, tripAt = AGENT_NOWHERE_TRIP_AT): TurnWatch {
  let streak = 0
  let allEmpty = true
  return {
    observe(turn) {
      if (turn.toolCalls > 0 || turn.answers) {
        streak = 0
        allEmpty = true
        return CONTINUE
      }
      streak++
      allEmpty &&= turn.empty
      const detector: NowhereDetector = allEmpty ? 'empty' : 'monologue'
      if (streak >= tripAt) {
        const message = allEmpty ? emptyTurnsTripMessage(streak) : monologueTripMessage(streak)
        return { action: 'trip', detector, count: streak, message }
      }
      if (streak === hintAt) {
        const message = allEmpty ? emptyTurnsHintMessage(streak) : monologueHintMessage(streak)
        return { action: 'hint', detector, count: streak, message }
      }
      return CONTINUE
    },
  }
}
