/** Trace numbers (engine/trace, `--trace`, `--otlp`): part of src/defaults.ts, split off by area. */

// --- Traces (flow-control.md "Traces") -----------------------------------------------------------
/**
 * A content attribute of a span (prompt, reply, tool arguments and result, node inputs and
 * output; only with content opted in) is cut to this many characters (range 256-1,000,000),
 * with a note of how many were left out: collectors drop or refuse very large attributes.
 */
export const TRACE_CONTENT_MAX_CHARS = 32_000
/** `--otlp`: the collector has this long to answer the POST (ms, range 1,000-120,000). */
export const OTLP_EXPORT_TIMEOUT_MS = 10_000
