/**
 * The one error type of Wardflow. Codes form a closed union; the UI turns each code into a
 * message a person can act on through the i18n catalogue (`errors.<code>`), and the CLI prints
 * `message`, which is always written in plain English.
 */
export type FlowErrorCode =
  // flow shape and preflight
  | 'CYCLE'
  | 'SELF_LOOP'
  | 'DANGLING_EDGE'
  | 'DUPLICATE_NODE_ID'
  | 'INVALID_NODE_ID'
  | 'UNKNOWN_NODE_TYPE'
  | 'UNSUPPORTED_NODE'
  | 'INVALID_CONFIG'
  | 'MISSING_CONFIG'
  | 'REF_UNKNOWN_NODE'
  | 'REF_NOT_UPSTREAM'
  | 'REF_FORBIDDEN_SEGMENT'
  /** A field's text, once its references are filled in, is over RuntimeProtection.templateMaxChars. */
  | 'TEMPLATE_TOO_LARGE'
  /** Warning only: the referenced node has no such output field. */
  | 'REF_UNKNOWN_FIELD'
  /** `{{node.data.x}}` names a field the node's output schema does not have. */
  | 'REF_NOT_IN_SCHEMA'
  | 'TOO_MANY_NODES'
  // sub-flows
  /** A `subflow` node names a flow that is not saved (browser) or not carried in the file (CLI). */
  | 'SUBFLOW_NOT_FOUND'
  /** Sub-flows call each other in a circle; the message names the chain (`a -> b -> a`). */
  | 'SUBFLOW_RECURSION'
  /** Sub-flows nest deeper than SUBFLOW_MAX_DEPTH. */
  | 'SUBFLOW_TOO_DEEP'
  /** A node inside the sub-flow failed (or the sub-flow cannot run); the message says which. */
  | 'SUBFLOW_FAILED'
  // knowledge
  /** A `knowledge` node names a base this host does not have; the message says how to add it. */
  | 'KNOWLEDGE_BASE_MISSING'
  /** Searching a base failed (its worker, its storage or the embeddings server). */
  | 'KNOWLEDGE_FAILED'
  // providers
  | 'PROVIDER_MISSING'
  | 'PROVIDER_AUTH'
  | 'PROVIDER_MODEL_NOT_FOUND'
  | 'PROVIDER_RATE_LIMIT'
  | 'PROVIDER_SERVER'
  | 'PROVIDER_NETWORK'
  | 'PROVIDER_BAD_RESPONSE'
  | 'PROVIDER_BAD_REQUEST'
  | 'KEY_LOCKED'
  | 'DEMO_SCRIPT_ENDED'
  // sandbox and tools
  | 'SANDBOX_TIMEOUT'
  | 'SANDBOX_MEMORY'
  | 'SANDBOX_ERROR'
  | 'SANDBOX_BAD_RESULT'
  | 'SANDBOX_RESULT_TOO_DEEP'
  | 'HTTP_TIMEOUT'
  | 'HTTP_BAD_URL'
  | 'HTTP_STATUS'
  | 'HTTP_TOO_LARGE'
  | 'HTTP_NETWORK'
  /** An MCP server an Agent names is unknown, cannot be reached or refused the connection. */
  | 'MCP_UNREACHABLE'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_INVALID_ARGS'
  /** A structured-output reply did not fit the schema after every repair attempt. */
  | 'STRUCTURED_OUTPUT_INVALID'
  // run and storage
  | 'CANCELLED'
  /** The whole-run budget (tokens or dollars) is spent: the call was not made, the run stopped. */
  | 'RUN_BUDGET'
  | 'UPSTREAM_FAILED'
  | 'IMPORT_INVALID'
  | 'STORAGE_QUOTA'
  | 'STORAGE_BLOCKED'
  | 'STORAGE_FAILED'
  /** Another tab saved the flow after this tab read it: nothing was overwritten. */
  | 'FLOW_CONFLICT'
  | 'WRONG_PASSPHRASE'
  /** `--replay`: the cassette holds no recorded reply for this request. */
  | 'REPLAY_MISSING'
  | 'INTERNAL'

/** One thing wrong at a path: English `message`, and the catalogue `key` the UI prefers. */
export interface FlowErrorProblem {
  path: string
  message: string
  key?: string
  params?: Record<string, string | number>
}

export interface FlowErrorOptions {
  nodeId?: string
  cause?: unknown
  /** Extra values for the message catalogue, e.g. `{ status: 429, retryAfterMs: 2000 }`. */
  details?: Record<string, string | number | boolean>
  /**
   * A catalogue key (`ns:key`, with `details`) more specific than `errors:<code>`: one code
   * covers many failures, and the UI should say which (a stored flow that cannot be read).
   */
  messageKey?: string
  /** What exactly was wrong, each worded by its own key (a newer Wardflow's document version). */
  problems?: readonly FlowErrorProblem[]
}

export class FlowError extends Error {
  readonly code: FlowErrorCode
  readonly nodeId?: string
  readonly details?: Record<string, string | number | boolean>
  readonly messageKey?: string
  readonly problems?: readonly FlowErrorProblem[]

  constructor(code: FlowErrorCode, message: string, options: FlowErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'FlowError'
    this.code = code
    this.nodeId = options.nodeId
    this.details = options.details
    this.messageKey = options.messageKey
    this.problems = options.problems
  }
}

/** Wraps anything thrown into a FlowError, keeping FlowErrors as they are. */
export function toFlowError(
  error: unknown,
  fallback: FlowErrorCode = 'INTERNAL',
  nodeId?: string,
): FlowError {
  if (error instanceof FlowError) return error
  if (isAbortError(error)) return new FlowError('CANCELLED', 'The run was stopped.', { nodeId, cause: error })
  const message = error instanceof Error ? error.message : String(error)
  return new FlowError(fallback, message, { nodeId, cause: error })
}

/** The `details` a nodeError event carries for `error`: the raw reply a schema refused, if any. */
export function errorEventDetails(error: FlowError): { details: { raw: string } } | Record<string, never> {
  const raw = error.details?.['raw']
  return typeof raw === 'string' ? { details: { raw } } : {}
}

/** True for the DOMException an aborted fetch or AbortSignal throws. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error as { name: unknown }).name === 'AbortError'
  )
}
