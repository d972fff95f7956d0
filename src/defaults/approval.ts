/** Tool-call approval numbers (flow-control.md, "MCP tools and approval"): part of src/defaults.ts (which re-exports it). */
import type { NumberRange } from './range.ts'

/**
 * How long an asked tool call waits for a person's answer before it counts as rejected
 * (`by: "timeout"`), in ms. Settings -> Runtime protection; the CLI's `--approval-timeout`.
 */
export const APPROVAL_TIMEOUT_MS = 600_000
/** 10 s to 24 h, in ms. */
export const APPROVAL_TIMEOUT_RANGE_MS: NumberRange = { min: 10_000, max: 86_400_000, step: 1_000 }
/** Characters of a tool call's arguments the CLI prints in its approval question (the rest is cut). */
export const APPROVAL_PROMPT_MAX_CHARS = 2_000
