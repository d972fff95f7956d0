/** Degenerate-text guard and Agent turn-watch numbers: part of src/defaults.ts (which re-exports it), split off by area. */
import type { NumberRange } from './range.ts'

// --- Degenerate text and turns that go nowhere (docs/guard.md, "Degenerate text") --------------
/** Watch streamed LLM and Agent replies for text that repeats itself (Settings and per node). */
export const TEXT_LOOP_DETECTION_ENABLED = true
/** Characters per hashed chunk of prose (whitespace runs count as one). */
export const TEXT_LOOP_CHUNK_CHARS = 50
export const TEXT_LOOP_CHUNK_RANGE_CHARS: NumberRange = { min: 10, max: 200, step: 1 }
/** How many times one chunk must recur, each close to the previous one, to trip. */
export const TEXT_LOOP_REPEATS = 10
export const TEXT_LOOP_REPEATS_RANGE: NumberRange = { min: 3, max: 50, step: 1 }
/** Two occurrences of a chunk are "close" when at most this many prose characters apart. */
export const TEXT_LOOP_MAX_GAP_CHARS = 250
export const TEXT_LOOP_MAX_GAP_RANGE_CHARS: NumberRange = { min: 20, max: 2_000, step: 10 }
/** The repeated stretch must also cover this many prose characters (short periods, e.g. "ha"). */
export const TEXT_LOOP_MIN_SPAN_CHARS = 200
export const TEXT_LOOP_MIN_SPAN_RANGE_CHARS: NumberRange = { min: 50, max: 5_000, step: 10 }
/**
 * Share (0-1) of the last period's positions whose chunk recurs too, for a chain to trip: a loop
 * repeats all of itself, a refrain only its own lines between verses that differ.
 */
export const TEXT_LOOP_MIN_REPEATED_SHARE = 0.75
/** Characters of the repeated chunk quoted in the trip's console line. */
export const TEXT_LOOP_QUOTE_CHARS = 40
/** Agent turns with no text and no tool calls (or only reasoning) in a row before the nudge. */
export const AGENT_NOWHERE_HINT_AT = 3
/** The next such turn after the nudge ends the loop with a tools-disabled final answer. */
export const AGENT_NOWHERE_TRIP_AT = 4
/** Cap on tool calls the agent runs in one assistant turn; the rest get a "skipped" result. */
export const AGENT_MAX_TOOL_CALLS_PER_TURN = 16
/** Observations longer than this are cut before they go back to the model. */
export const AGENT_OBSERVATION_MAX_CHARS = 20_000
/** An invalid tool call's error observation lists at most this many schema problems. */
export const AGENT_SCHEMA_MAX_PROBLEMS = 5
/**
 * A JSON Schema nested deeper than this is not compiled (tool arguments: not checked; structured
 * output: refused), because compiling one thousands deep takes seconds and then overflows the stack.
 */
export const JSON_SCHEMA_MAX_DEPTH = 64
/** Tool arguments and observations are cut to this length in the node console (not for the model). */
export const AGENT_CONSOLE_PREVIEW_CHARS = 300
/**
 * The agent loop's watchdog on a code or http tool fires this long after the tool's own timeout,
 * so the tool's more precise error (sandbox, HTTP) normally reaches the model first.
 */
export const AGENT_WATCHDOG_GRACE_MS = 1_000
