/** How the run panel and history show dollars: part of src/defaults.ts (which re-exports it). */

/** Amounts below this are shown with more decimals (a cheap model call is a fraction of a cent). USD, > 0. */
export const USD_SMALL_BELOW = 1
/** Decimals shown for amounts under USD_SMALL_BELOW, at most; digits, 2..6. */
export const USD_SMALL_MAX_DIGITS = 4
/** Decimals always shown (cents); digits, 0..2. */
export const USD_MIN_DIGITS = 2
