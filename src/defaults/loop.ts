/** Loop node numbers: part of src/defaults.ts (which re-exports it), split off by area. */
import type { NumberRange } from './range.ts'

// --- Loop node (flow-control.md, `loop`) --------------------------------------------------------
/** Iterations a `while` loop runs at most before it stops with stopReason `maxIterations`. */
export const LOOP_MAX_ITERATIONS = 10
export const LOOP_MAX_ITERATIONS_RANGE: NumberRange = { min: 1, max: 1_000, step: 1 }
/** Items of a `forEach` loop whose body runs at once. */
export const LOOP_CONCURRENCY = 1
export const LOOP_CONCURRENCY_RANGE: NumberRange = { min: 1, max: 32, step: 1 }
/** A loop's box on the canvas when added, and the room it keeps around its body when it grows. */
export const LOOP_DEFAULT_WIDTH_PX = 560
export const LOOP_DEFAULT_HEIGHT_PX = 280
export const LOOP_BODY_PADDING_PX = 24
/**
 * Iterations of each loop the run store keeps per body node, and the run record keeps the events
 * of (per loop, per enclosing iteration): the newest ones; older ones are counted and shown as
 * "N earlier iterations not kept". A forEach over 10,000 items would otherwise hold every
 * iteration's inputs, outputs and console text in memory and in IndexedDB. The loop's own
 * `results` always has every item.
 */
export const LOOP_STORED_ITERATIONS_MAX = 100
export const LOOP_STORED_ITERATIONS_MAX_RANGE: NumberRange = { min: 1, max: 10_000, step: 1 }
/** Console characters kept per iteration record (the node's own console keeps CONSOLE_MAX_CHARS). */
export const LOOP_ITERATION_CONSOLE_MAX_CHARS = 20_000
/**
 * How many distinct template texts keep their parsed `{{references}}` between renders, and the
 * longest text kept (characters). Parsing costs ~3 µs per reference, which a condition with 10
 * rules paid on every evaluation (bench/condition.bench.ts); the cache is emptied when full.
 */
export const TEMPLATE_PARSE_CACHE_ENTRIES = 1_000
export const TEMPLATE_PARSE_CACHE_MAX_TEXT_CHARS = 2_000
/** Compiled `matches` patterns of condition rules kept between evaluations (emptied when full). */
export const CONDITION_PATTERN_CACHE_ENTRIES = 500
/**
 * Longest text one field may become once its `{{references}}` are filled in (a prompt, a body, a
 * Template's text), in characters. A 1 MB input referenced 100 times made a 100 MB prompt that
 * froze the tab; 8 million characters still hold a 5 MB HTTP body (HTTP_MAX_RESPONSE_BYTES) quoted
 * whole. A setting (Settings > Protection).
 */
export const TEMPLATE_MAX_RESOLVED_CHARS = 8_000_000
export const TEMPLATE_MAX_RESOLVED_RANGE_CHARS: NumberRange = { min: 10_000, max: 50_000_000, step: 10_000 }
export const FLOW_MAX_NODES = 5_000
/**
 * Connections a flow may hold once duplicates (same nodes, same handles) are folded into one:
 * imports refuse more with a message naming both numbers. A 5,000-node flow with this many opens
 * in about a second (bench: open 5,000 nodes / 20,000 edges); the range is what the cap may be
 * tuned to without making an open block the page for seconds.
 */
export const FLOW_MAX_EDGES = 20_000
export const FLOW_MAX_EDGES_RANGE: NumberRange = { min: 1_000, max: 50_000, step: 1_000 }
export const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
/** The run's event queue drops consumed events once this many have piled up at its head. */
export const EVENT_QUEUE_COMPACT_AT = 1_024
