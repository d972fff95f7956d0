/** MCP numbers (flow-control.md, "MCP tools and approval"): part of src/defaults.ts (re-exported). */

// --- MCP servers and their tools ------------------------------------------------------------------
/**
 * Longest wait for an MCP server to answer `initialize` and `tools/list`, in ms (range 1,000 to
 * 120,000). A server that has not answered by then fails the Agent node, naming the server.
 */
export const MCP_CONNECT_TIMEOUT_MS = 15_000
/**
 * Characters of an MCP tool's reply the model reads (range 1,000 to AGENT_OBSERVATION_MAX_CHARS
 * less room for the line); the rest is cut and a line says how much was left out, in words a
 * model reads. A chatty server would otherwise fill the context.
 */
export const MCP_RESULT_MAX_CHARS = 16_000
/** Characters of a tool's description shown in the inspector's list before "…" (10 to 2,000). */
export const MCP_DESCRIPTION_PREVIEW_CHARS = 200
/** Tools of one server an Agent offers at most (1 to 500): more would crowd out the prompt. */
export const MCP_MAX_TOOLS_PER_SERVER = 128
/** Longest wait for one CORS probe of the settings' server check, in ms (500 to 30,000). */
export const MCP_PROBE_TIMEOUT_MS = 5_000
/**
 * Longest wait, when a run's MCP session closes, for messages still being sent (a Stop's
 * `notifications/cancelled`), in ms (0 to 10,000): closing aborts them otherwise.
 */
export const MCP_CLOSE_DRAIN_MS = 1_000
/** Characters of a stdio server's stderr kept to explain why it failed (0 to 100,000). */
export const MCP_STDIO_STDERR_TAIL_CHARS = 2_000
