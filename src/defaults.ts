/**
 * Every runtime number of Wardflow lives here, with its unit in its name and, where a person can
 * change it, its allowed range. Settings forms, node inspectors and the engine all read these;
 * no other file holds a literal threshold (house rule 3).
 */

import type { NumberRange } from './defaults/range.ts'

export type { NumberRange } from './defaults/range.ts'
// Sections of their own (each with its units and ranges, like the rest of this file):
export * from './defaults/textLoop.ts'
export * from './defaults/cost.ts'
export * from './defaults/costDisplay.ts'
export * from './defaults/loop.ts'
export * from './defaults/knowledge.ts'
export * from './defaults/trace.ts'
export * from './defaults/approval.ts'
export * from './defaults/mcp.ts'
export * from './defaults/batch.ts'
export * from './defaults/queue.ts'

// --- Agent guard (docs/guard.md) ---------------------------------------------------------------
export const AGENT_MAX_ITERATIONS = 10
export const AGENT_MAX_ITERATIONS_RANGE: NumberRange = { min: 1, max: 50, step: 1 }
/** 0 means unlimited. */
export const AGENT_TOKEN_BUDGET = 0
export const AGENT_TOKEN_BUDGET_RANGE: NumberRange = { min: 0, max: 10_000_000, step: 1000 }
export const LOOP_DETECTION_ENABLED = true
export const LOOP_HINT_AT = 2
export const LOOP_TRIP_AT = 3
export const LOOP_TRIP_AT_RANGE: NumberRange = { min: 2, max: 10, step: 1 }
export const LOOP_PROGRESS_AWARE = true
export const LOOP_CYCLE_DETECTION = true
export const LOOP_MAX_CYCLE_PERIOD = 4
export const LOOP_MAX_IDENTICAL_CALLS = 10
export const AGENT_FINALIZE_AFTER_STOP = true

// --- Watchdogs --------------------------------------------------------------------------------
export const SANDBOX_TIMEOUT_MS = 5_000
export const SANDBOX_TIMEOUT_RANGE_MS: NumberRange = { min: 1_000, max: 60_000, step: 1_000 }
export const SANDBOX_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024
export const SANDBOX_STACK_LIMIT_BYTES = 1024 * 1024
export const SANDBOX_MAX_LOG_LINES = 500
export const SANDBOX_MAX_RESULT_CHARS = 1_000_000
/**
 * Nesting levels a code result may have. Deeper values (valid JSON) overflow the stack of the
 * recursive walks after the run (JSON text, the run record's clone into IndexedDB), so they are
 * refused with this number in the message instead of a misleading "not valid JSON".
 */
export const SANDBOX_MAX_RESULT_DEPTH = 1_000
/** Console lines longer than this are cut (with an ellipsis) inside the sandbox. */
export const SANDBOX_MAX_LOG_LINE_CHARS = 10_000
/** Error messages coming out of the sandbox are cut to this length. */
export const SANDBOX_MAX_ERROR_CHARS = 2_000
/**
 * The wasm memory of a sandbox worker starts at the module's own minimum and is capped at
 * SANDBOX_MEMORY_LIMIT_BYTES plus this overhead (static data, the 5 MB C stack). The cap is the
 * real limit: QuickJS's own accounting in this wasm build counts large blocks as 8 bytes.
 */
export const SANDBOX_WASM_INITIAL_BYTES = 16 * 1024 * 1024
export const SANDBOX_WASM_OVERHEAD_BYTES = 16 * 1024 * 1024
/**
 * Browser workers have a fixed native stack, so QuickJS must stop recursing sooner there. In
 * Chromium 156, 256 KB still overflowed the native stack first; 128 KB (~700 frames) overflows
 * cleanly for plain recursion. Deeper native nesting is caught as a crash and the worker replaced.
 */
export const SANDBOX_BROWSER_STACK_LIMIT_BYTES = 128 * 1024
/** V8 stack of the Node worker thread: QuickJS's 1 MB wasm stack needs ~16 MB of native stack. */
export const SANDBOX_NODE_WORKER_STACK_MB = 32
/** The in-VM interrupt fires this long after the deadline; the host's kill is the first line. */
export const SANDBOX_INTERRUPT_GRACE_MS = 100
/** Workers a runner keeps (running or idle); further runs queue. */
export const SANDBOX_MAX_WORKERS = 2
/** A worker that has not loaded QuickJS within this time is treated as failed. */
export const SANDBOX_WORKER_START_TIMEOUT_MS = 15_000
export const HTTP_TIMEOUT_MS = 30_000
export const TOOL_TIMEOUT_RANGE_MS: NumberRange = { min: 5_000, max: 300_000, step: 1_000 }
export const HTTP_TIMEOUT_RANGE_MS: NumberRange = { min: 1_000, max: 300_000, step: 1_000 }
export const HTTP_RETRIES = 2
export const HTTP_RETRIES_RANGE: NumberRange = { min: 0, max: 5, step: 1 }
export const HTTP_MAX_RESPONSE_BYTES = 5 * 1024 * 1024
/** HTTP node retry backoff: base * 2^attempt, capped; a Retry-After header wins when present. */
export const HTTP_BACKOFF_BASE_MS = 500
export const HTTP_BACKOFF_MAX_MS = 20_000
/** A Retry-After longer than this is not waited for: the node fails with the status instead. */
export const HTTP_RETRY_AFTER_MAX_MS = 60_000
/** How much of a failed response's body goes into the error message. */
export const HTTP_ERROR_BODY_MAX_CHARS = 500

// --- Providers --------------------------------------------------------------------------------
export const LLM_TEMPERATURE = 0.7
export const LLM_TEMPERATURE_RANGE: NumberRange = { min: 0, max: 2, step: 0.1 }
export const LLM_MAX_TOKENS = 1024
export const LLM_MAX_TOKENS_RANGE: NumberRange = { min: 1, max: 200_000, step: 1 }
/** The demo provider's structured answer stops building nested values past this depth. */
export const DEMO_SAMPLE_MAX_DEPTH = 16
/** The inspector offers upstream fields this many levels into a schema or a last run's value. */
export const INSPECTOR_REF_MAX_DEPTH = 4
/** ...and at most this many references per upstream node. */
export const INSPECTOR_REF_MAX_PER_NODE = 60
/** The template autocomplete lists at most this many matches. */
export const INSPECTOR_REF_SUGGESTIONS = 8
/** Structured output: how many times a reply that does not fit the schema is asked for again. */
export const STRUCTURED_REPAIR_ATTEMPTS = 2
export const STRUCTURED_REPAIR_ATTEMPTS_RANGE: NumberRange = { min: 0, max: 5, step: 1 }
/** A repair request and a failed node's message name at most this many schema problems. */
export const STRUCTURED_MAX_PROBLEMS = 10
/** A failed node's message quotes at most this much of the last reply (details.raw keeps it whole). */
export const STRUCTURED_RAW_PREVIEW_CHARS = 200
export const PROVIDER_MAX_RETRIES = 3
export const PROVIDER_BACKOFF_BASE_MS = 500
export const PROVIDER_BACKOFF_MAX_MS = 20_000
/** A Retry-After longer than this is reported to the person instead of waited for. */
export const PROVIDER_RETRY_AFTER_MAX_MS = 60_000
export const PROVIDER_REQUEST_TIMEOUT_MS = 120_000
/**
 * The most one model call may take from its request to its reply's end, retries included,
 * whatever the server sends meanwhile: keep-alive comments (which never reset the idle watchdog
 * above) or empty chunks cannot keep a call open forever. A setting (Runtime protection); the
 * default leaves room for a long reasoning reply.
 */
export const PROVIDER_CALL_DEADLINE_MS = 30 * 60_000
export const PROVIDER_CALL_DEADLINE_RANGE_MS: NumberRange = { min: 10_000, max: 24 * 3_600_000, step: 1_000 }
/**
 * Caps on what a model server may send, so no reply can exhaust memory (a 200 MB line grew the
 * CLI to 3.5 GB). An SSE line holds one small event; 1 M characters is far beyond any real one.
 */
export const PROVIDER_SSE_LINE_MAX_CHARS = 1_048_576
/** A whole reply as sent (SSE framing included): 100,000 streamed tokens are about 15 M. */
export const PROVIDER_REPLY_MAX_CHARS = 32 * 1_048_576
/** Bytes of an error body read for its message (then the body is cancelled). */
export const PROVIDER_ERROR_BODY_READ_MAX_BYTES = 64 * 1024
/**
 * A fast server can deliver thousands of streamed events in one network read, and handling them
 * runs as one unbroken chain of microtasks. The reply text is handed on in pieces of at most this
 * many characters, and once a stream has kept the thread busy for PROVIDER_STREAM_SLICE_MS the
 * reader waits for one macrotask, so the page can draw (no long task while 20,000 tokens arrive).
 */
// 1 KB (about ten events): the slice check runs between pieces, so a piece is how far a slice
// can overshoot; 4 KB pieces let one task run ~40 events past its slice on a loaded machine.
export const PROVIDER_STREAM_PIECE_CHARS = 1_024
export const PROVIDER_STREAM_SLICE_MS = 8
export const ANTHROPIC_API_VERSION = '2023-06-01'
export const ANTHROPIC_MAX_TOKENS = 4096
export const DEMO_CHUNK_SIZE_CHARS = 4
export const DEMO_DELAY_MS = 15
/** The generic demo reply (no script) quotes at most this much of the last user message. */
export const DEMO_ECHO_MAX_CHARS = 200
/** Anthropic accepts temperatures 0..1 only; higher node values are sent as this. */
export const ANTHROPIC_MAX_TEMPERATURE = 1
/** Page size when listing Anthropic models (the API's maximum). */
export const ANTHROPIC_MODELS_PAGE_LIMIT = 1000
/** How much of an error response body is read for the message shown to the person. */
export const PROVIDER_ERROR_BODY_MAX_CHARS = 2_000
/** Token-estimate overhead per chat message (role and separators), as OpenAI documents it. */
export const TOKEN_ESTIMATE_PER_MESSAGE = 4
/** Token-estimate overhead for priming the assistant's reply. */
export const TOKEN_ESTIMATE_REPLY_PRIMING = 3
/** Rough chars per token, used only until the tokenizer has loaded (runs with no model node skip loading it). */
export const TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN = 4
/**
 * How long the token worker may take to load the encoding (a ~2 MB download, parsed in the
 * worker) before counting moves to the page's thread, so a worker that never starts cannot hold
 * a run's end forever. The clock starts with the page's first count, which waits for the load.
 */
export const TOKEN_WORKER_START_TIMEOUT_MS = 20_000

// --- Engine -----------------------------------------------------------------------------------
export const RUN_CONCURRENCY = 10
export const RUN_CONCURRENCY_RANGE: NumberRange = { min: 1, max: 32, step: 1 }
/**
 * How deep sub-flows may nest: a flow's `subflow` node runs a flow at depth 1, a `subflow` node
 * in that one at depth 2, and so on. Preflight refuses a deeper chain, and so does the runner.
 */
export const SUBFLOW_MAX_DEPTH = 5
export const SUBFLOW_MAX_DEPTH_RANGE: NumberRange = { min: 1, max: 20, step: 1 }
export const TEMPLATE_MAX_DEPTH = 32

// --- Storage and UI ---------------------------------------------------------------------------
export const AUTOSAVE_DELAY_MS = 800
export const AUTOSAVE_DELAY_RANGE_MS: NumberRange = { min: 200, max: 10_000, step: 100 }
/**
 * While changes keep coming (a typing burst restarts the delay on every key), autosave still
 * writes at least this often. Never shorter than the delay setting. Fixed, not a setting.
 */
export const AUTOSAVE_MAX_WAIT_MS = 3_000
/** A save that meets another tab's newer version of the flow merges and tries again, this many times in all. */
export const FLOW_SAVE_ATTEMPTS = 3
export const RUN_HISTORY_PER_FLOW = 20
export const RUN_HISTORY_RANGE: NumberRange = { min: 1, max: 200, step: 1 }
/** Typing into one field within this window is one undo step. */
export const UNDO_GROUP_WINDOW_MS = 1_000
export const UNDO_HISTORY_LIMIT = 200
export const SNAP_GRID_PX = 16
/**
 * The minimap draws one shape per node and redraws them all on every change of the canvas:
 * above this many nodes it is left out (it cost most of the open of a 5,000-node flow).
 */
export const MINIMAP_MAX_NODES = 1_000
export const PASTE_OFFSET_PX = 32
/**
 * Canvas: a node's nominal size, used before React Flow measured it (drop point, layout). The
 * height is that of a fresh node (header only: ~53 px; with a one-line summary: ~86 px), so a
 * node dropped and snapped to the grid always has the pointer inside it.
 */
export const NODE_WIDTH_PX = 260
export const NODE_HEIGHT_PX = 56
/**
 * A handle's side (the `.wf-handle` rule in canvas.css draws it this big), centred on the node's
 * left or right edge: where edges end at a node React Flow has not drawn yet (rfAdapter.ts).
 */
export const NODE_HANDLE_SIZE_PX = 11
export const NOTE_DEFAULT_WIDTH_PX = 240
export const NOTE_DEFAULT_HEIGHT_PX = 140
export const NOTE_MIN_SIZE_PX = 120
/** Below this zoom, node bodies drop their text (unreadable there) so big flows pan and drag fast. */
export const CANVAS_DETAIL_MIN_ZOOM = 0.45
/** From this many nodes on, the canvas renders only the nodes in view (React Flow's option). */
export const CANVAS_VISIBLE_ONLY_MIN_NODES = 200
/** Auto-layout spacing (dagre, left to right). */
export const LAYOUT_RANK_SEP_PX = 80
export const LAYOUT_NODE_SEP_PX = 40
/** Zoom used when a problem or a node is focused; fitView never zooms in past FIT_VIEW_MAX_ZOOM. */
export const FOCUS_NODE_MAX_ZOOM = 1.2
export const FIT_VIEW_MAX_ZOOM = 1.5
/**
 * Fitting the view (the Fit button, auto-layout, opening a flow) never zooms out past this, where
 * node titles are still readable (well above CANVAS_DETAIL_MIN_ZOOM, where they are dropped). A
 * flow too big to fit at this zoom is shown from its start (its first node at the left), not
 * shrunk to dots.
 */
export const FIT_VIEW_MIN_ZOOM = 0.7
export const FIT_VIEW_MIN_ZOOM_RANGE: NumberRange = { min: 0.5, max: 1, step: 0.05 }
/** Space kept free around the fitted flow, as a share of the canvas (React Flow's `padding`). */
export const FIT_VIEW_PADDING = 0.1
/** Left margin before a flow's first node when it is shown from its start. */
export const FIT_VIEW_START_MARGIN_PX = 40
export const VIEWPORT_ANIMATION_MS = 250
/**
 * Space a node's console takes below its body once a run wrote to it (the fixed box of
 * canvas.css, `--console-max-h`, plus its toggle row). Auto-layout reserves it under every node
 * that can print, so a console never covers the node below it.
 */
export const NODE_CONSOLE_BOX_PX = 140
export const NODE_CONSOLE_TOGGLE_PX = 26
/**
 * A console never covers another node: under a node placed by hand with less room than the full
 * box, the box shrinks to the room, keeping this clearance above the next node. With less room
 * than NODE_CONSOLE_MIN_BOX_PX (two readable lines) it docks: a button on the node shows it in
 * the inspector instead.
 */
export const NODE_CONSOLE_MIN_BOX_PX = 44
export const NODE_CONSOLE_MIN_BOX_RANGE_PX: NumberRange = { min: 30, max: NODE_CONSOLE_BOX_PX, step: 2 }
export const NODE_CONSOLE_CLEARANCE_PX = 8
export const NODE_CONSOLE_CLEARANCE_RANGE_PX: NumberRange = { min: 0, max: 32, step: 2 }
/** A node body with a one-line summary, the part above its console. */
export const NODE_BODY_HEIGHT_PX = 96
/** The canvas keeps at least this height when the run panel and the problems list are open. */
export const CANVAS_MIN_HEIGHT_PX = 240
/** The run panel's height (drag its splitter, or arrow keys on it), remembered per browser. */
export const RUN_PANEL_HEIGHT_PX = 220
export const RUN_PANEL_HEIGHT_RANGE_PX: NumberRange = { min: 72, max: 640, step: 24 }
/** Preflight runs this long after the last structural edit, never per drag frame. */
export const PREFLIGHT_DEBOUNCE_MS = 300
/** How long a status note (refused connection, pasted nodes) stays on screen. */
export const STATUS_NOTE_MS = 4_000
/** Textarea fields longer than this many lines open in the code editor. */
export const INSPECTOR_EDITOR_MIN_LINES = 12
/**
 * Texts a code editor reported that its field has not handed back yet, at most (ui/inspector/
 * editorEchoes.ts). A few keys' worth while a render lags; the bound only matters for a field
 * that never echoes what it is given.
 */
export const CODE_EDITOR_PENDING_ECHOES_MAX = 64
export const CONSOLE_MAX_CHARS = 200_000
/**
 * A streaming console draws in an animation frame, but at most once per this many ms (every
 * fourth frame at 60 Hz): streamed text still reads as flowing at ~15 draws a second, and each
 * draw costs the page a layout, a paint and a compositor update, so fewer draws leave fewer
 * chances of a long task on a busy machine (the A/B runs that chose it: docs/benchmarks.md).
 * A little below RUN_BATCH_MIN_INTERVAL_MS, so a batch the run applies is drawn in that frame.
 */
export const CONSOLE_DRAW_MIN_INTERVAL_MS = 56
/**
 * The run applies its batched events (store update, console draw) at most once per this many ms,
 * in an animation frame, waiting on a timer in between (src/app/runs/pacedFrames.ts): every fourth
 * frame at 60 Hz, and no frame at all while there is nothing to apply. The console's own limit
 * (above) is a little shorter, so a batch is drawn in the frame it is applied in.
 */
export const RUN_BATCH_MIN_INTERVAL_MS = 60
/** Frame and timer times jitter: a batch this close to its due time counts as due. */
export const RUN_BATCH_FRAME_TOLERANCE_MS = 1
/**
 * Console text is laid out in blocks so a long reply costs the browser one small block of layout
 * per frame: a block ends at the first newline after SOFT characters, and is cut (at a space when
 * there is one) at HARD characters.
 */
export const CONSOLE_BLOCK_SOFT_CHARS = 2_000
export const CONSOLE_BLOCK_HARD_CHARS = 8_000
/**
 * Closed blocks right behind a console's newest block that stay laid out and painted whatever
 * the view (consoleDom.ts): older ones are drawn only while in view. A block holds some 1,300 px
 * of text in a node console, so these cover the box and a little scrolling up.
 */
export const CONSOLE_UNSETTLED_CLOSED_BLOCKS = 2
/**
 * A console checks that a line only grew by comparing this many characters at each end of what
 * it shows (not the whole text, which would cost O(length) per frame while a reply streams).
 */
export const CONSOLE_APPEND_CHECK_CHARS = 64
/** A refused run lists at most this many problems in the error banner, then says how many more. */
export const RUN_REFUSAL_MAX_LISTED = 8
/** How often the run panel's duration ticks while a run is going. */
export const RUN_CLOCK_TICK_MS = 250
/** Node body summaries (first line of a prompt, URL, ...) are cut to this length. */
export const NODE_SUMMARY_MAX_CHARS = 80
export const KEY_PBKDF2_ITERATIONS = 600_000
export const IMPORT_MAX_FILE_BYTES = 20 * 1024 * 1024
/** Imported JSON nested deeper than this is refused before any recursive walk touches it. */
export const IMPORT_MAX_JSON_DEPTH = 100
/** An import lists at most this many problems, then says how many more there are. */
export const IMPORT_MAX_PROBLEMS = 50
/** Iteration counts a stored or imported encrypted blob may name; outside this it is refused. */
export const KEY_PBKDF2_ITERATIONS_RANGE: NumberRange = { min: 100_000, max: 5_000_000 }
export const KEY_SALT_BYTES = 16
/** AES-GCM nonce length recommended by NIST SP 800-38D. */
export const KEY_IV_BYTES = 12
export const KEY_PASSPHRASE_MIN_CHARS = 8

// --- Offline copy (service worker, src/offline/) ---

/**
 * Files larger than this are precached after the worker has taken over (Monaco, its language
 * workers, the tokenizer table: ~16 of ~20 MB), so the app shell is offline within seconds.
 */
export const PRECACHE_DEFERRED_MIN_BYTES = 1_000_000
/** The offline service worker's file name in the site root (the build writes it, the page registers it). */
export const SERVICE_WORKER_FILE = 'sw.js'
/** Longest wait for an idle moment after load before the service worker is registered anyway. */
export const SERVICE_WORKER_IDLE_TIMEOUT_MS = 5_000

// --- CLI ---------------------------------------------------------------------------------------
/** Further problems of a refused workflow file the CLI's one-line refusal names by their path. */
export const CLI_MORE_PROBLEMS_SHOWN = 5
