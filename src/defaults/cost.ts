/** Whole-run budget and cost numbers: part of src/defaults.ts (which re-exports it), split off by area. */
import type { NumberRange } from './range.ts'

// --- Whole-run budget (docs/guard.md, "Whole-run budget and cost") ------------------------------
/** Share of a run limit (tokens or USD) whose first crossing sends the `hint` guard event; ratio 0..1. */
export const RUN_BUDGET_HINT_RATIO = 0.8
export const RUN_BUDGET_HINT_RATIO_RANGE: NumberRange = { min: 0.1, max: 1, step: 0.05 }
/** Default whole-run token limit; 0 = none. Tokens, 0..1e9. */
export const RUN_MAX_TOKENS = 0
export const RUN_MAX_TOKENS_RANGE: NumberRange = { min: 0, max: 1_000_000_000, step: 1 }
/** Default whole-run cost limit; 0 = none. US dollars, 0..1e6. */
export const RUN_MAX_COST_USD = 0
export const RUN_MAX_COST_RANGE_USD: NumberRange = { min: 0, max: 1_000_000, step: 0.01 }
/** Prices are per this many tokens (the price table's unit, "per MTok"). Tokens, fixed. */
export const TOKENS_PER_MTOK = 1_000_000
/**
 * How long the browser's and the CLI's pricing port keep a looked-up price before asking the
 * table again (some providers price by the hour: DeepSeek off-peak). Milliseconds, fixed: the
 * table's hourly edges fall on whole minutes.
 */
export const PRICE_LOOKUP_REFRESH_MS = 60_000
/** A price override's price per million tokens (settings, "Budget"). US dollars per MTok, 0..10,000. */
export const PRICE_PER_MTOK_RANGE_USD: NumberRange = { min: 0, max: 10_000, step: 0.001 }
/** The most price overrides settings keep (one per provider and model). Rows, 0..500. */
export const PRICE_OVERRIDES_MAX = 500
/** The longest model name a price override may name. Characters, 1..200. */
export const PRICE_OVERRIDE_MODEL_MAX_CHARS = 200
