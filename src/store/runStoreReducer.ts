/**
 * Pure reducer from engine run events to what the canvas shows: each node's status, console,
 * badge, inputs/outputs/usage/timing, and the run's progress. The live run applies it once per
 * animation frame; a past run is re-opened by replaying its saved events through it. (Streamed
 * console text also records its pieces beside the lines, consoleText.ts: invisible to callers.)
 */
import { CONSOLE_MAX_CHARS } from '../defaults.ts'
import { canvasPlace, keyedRecord } from '../engine/index.ts'
import type { GuardEvent, GuardLayer, GuardLevel, NodeCached, RunEvent, Usage } from '../engine/index.ts'
import { grownLine, streamedLine, trimmedLine } from './consoleText.ts'
import { IDLE_RUN_STATE, nodeStateOf } from './runState.ts'
import { englishBadge, type BadgeLabeller, type NodeAlert } from './guardBadges.ts'
import { subflowConsole } from './subflowEvents.ts'
import { withIteration, type IterationRecord } from './iterationRecords.ts'
import { NOTHING_SPENT, withNodeSpent, withRunFinished, type RunSpent } from './runSpent.ts'
import { runGuardOf, type RunGuardLine } from './runGuard.ts'

export type { IterationRecord } from './iterationRecords.ts'
export { IDLE_RUN_STATE, nodeStateOf } from './runState.ts'
export { badgeKey, englishBadge, type BadgeLabeller, type NodeAlert } from './guardBadges.ts'

export type NodeRunStatus = 'idle' | 'queued' | 'running' | 'success' | 'error' | 'skipped' | 'stopped'

export type ConsoleLineKind = 'output' | 'reasoning' | 'log' | 'guard' | 'error' | 'info'

/** One console segment. Streamed chunks of one kind merge into one segment; shown as text only. */
export interface ConsoleLine {
  kind: ConsoleLineKind
  text: string
  /** For `guard` lines. */
  layer?: GuardLayer
  level?: GuardLevel
}

export interface NodeRunState {
  status: NodeRunStatus
  consoleLines: readonly ConsoleLine[]
  /** A short note on the node header, e.g. "Deadlock breaker tripped"; cleared by the next run. */
  badge?: string
  /** Characters held in consoleLines (kept so capping is O(1) per append). */
  consoleChars?: number
  /** True once the console dropped its oldest text to stay under CONSOLE_MAX_CHARS. */
  consoleCut?: boolean
  /** Characters dropped from the front of the console so far (the view trims as many). */
  consoleDropped?: number
  /**
   * The last run left text in this node's console: the new run keeps the (emptied) box mounted
   * until the node ends, and the view keeps a box that was full at its size (NodeConsole), so a
   * rerun does not shrink the node and grow it back at its first line. Each change of a node's
   * size has React Flow measure it and redraw its edges, a frame of 10-25 ms at the start of
   * every rerun of a streaming node.
   */
  consoleKept?: boolean
  alert?: NodeAlert
  /** The node's resolved inputs: direct upstream outputs keyed by node id. */
  inputs?: Readonly<Record<string, unknown>>
  output?: Readonly<Record<string, unknown>>
  /** Output ports not taken (what a pin keeps); `cached`: the output was pinned or reused. */
  notTaken?: readonly string[]
  cached?: NodeCached
  usage?: Usage
  /** ms since epoch */
  startedAt?: number
  durationMs?: number
  error?: { code: string; message: string }
  skipReason?: string
  /** The skip's reason code (`notTaken`, `upstreamFailed`, `stopped`), for styling. */
  skipCode?: string
  /**
   * A loop body node's runs, one per iteration (events whose `nesting` has loops), in iteration
   * order (outer loops first): what the console and inspector browse. The fields above show the
   * latest iteration.
   */
  iterations?: readonly IterationRecord[]
  /** Iterations older than the ones kept (LOOP_STORED_ITERATIONS_MAX), left out of `iterations`. */
  iterationsNotKept?: number
  /** A `subflow` node: the called flow's node whose text streamed into this console last. */
  innerStream?: string
}

// interrupted: a reload mid-run; stopped: the whole-run budget stopped it
export type RunOutcome = 'success' | 'error' | 'cancelled' | 'stopped' | 'interrupted'

export interface RunFailure {
  nodeId: string
  code: string
  message: string
}

/** The run as the run panel shows it. */
export interface RunSummary {
  runId: string
  flowId: string
  status: 'running' | RunOutcome
  startedAt: number
  finishedAt?: number
  durationMs?: number
  /** Executable nodes in the run. */
  total: number
  /** Nodes that finished, failed or were skipped. */
  done: number
  usage: Usage
  /** Tokens and USD so far and by node (runSpent.ts): the `run-cost` figure. */
  spent: RunSpent
  failures: readonly RunFailure[]
  /** The whole-run budget's latest hint or trip (runGuard.ts): the `run-guard` line. */
  runGuard?: RunGuardLine
}

function charsOf(state: NodeRunState): number {
  if (state.consoleChars !== undefined) return state.consoleChars
  let total = 0
  for (const line of state.consoleLines) total += line.text.length
  return total
}

/** Keeps the newest CONSOLE_MAX_CHARS characters of a console and marks it cut when it drops some. */
function capped(state: NodeRunState, lines: ConsoleLine[], chars: number): NodeRunState {
  if (chars <= CONSOLE_MAX_CHARS) return { ...state, consoleLines: lines, consoleChars: chars }
  let total = chars
  let drop = 0
  while (total > CONSOLE_MAX_CHARS && drop < lines.length - 1) {
    total -= (lines[drop] as ConsoleLine).text.length
    drop += 1
  }
  const out = lines.slice(drop)
  const first = out[0]
  if (first && total > CONSOLE_MAX_CHARS) {
    out[0] = trimmedLine(first, total - CONSOLE_MAX_CHARS)
    total = CONSOLE_MAX_CHARS
  }
  return {
    ...state,
    consoleLines: out,
    consoleChars: total,
    consoleCut: true,
    consoleDropped: (state.consoleDropped ?? 0) + chars - total,
  }
}

/** Appends streamed text, merged into the last segment when it has the same kind. */
export function withText(state: NodeRunState, kind: ConsoleLineKind, text: string): NodeRunState {
  if (text === '') return state
  const lines = state.consoleLines
  const last = lines[lines.length - 1]
  const next =
    last && last.kind === kind && kind !== 'guard'
      ? [...lines.slice(0, -1), grownLine(last, text)]
      : [...lines, streamedLine({ kind, text })]
  return capped(state, next, charsOf(state) + text.length)
}

/** Appends a line of its own (guard alert, error, note). */
export function withLine(state: NodeRunState, line: ConsoleLine): NodeRunState {
  return capped(state, [...state.consoleLines, line], charsOf(state) + line.text.length)
}

const LEVEL_RANK: Record<GuardLevel, number> = { hint: 1, trip: 2 }

function withGuard(state: NodeRunState, event: GuardEvent, badge: BadgeLabeller): NodeRunState {
  const next = withLine(state, { kind: 'guard', text: event.message, layer: event.layer, level: event.level })
  const current = state.alert
  if (current && LEVEL_RANK[current.level] > LEVEL_RANK[event.level]) return next
  const alert: NodeAlert = { layer: event.layer, level: event.level }
  if (event.detector) alert.detector = event.detector
  return { ...next, alert, badge: badge(alert) }
}

/** A node that ended shows its console only if it printed something (see consoleKept). */
function ended(state: NodeRunState): NodeRunState {
  if (!state.consoleKept) return state
  const { consoleKept: _kept, ...rest } = state
  return rest
}

/** The nodes without any kept console box; the same object when none was kept. */
export function withoutKeptConsoles(
  nodes: Readonly<Record<string, NodeRunState>>,
): Readonly<Record<string, NodeRunState>> {
  let out: Record<string, NodeRunState> | undefined
  for (const [id, state] of Object.entries(nodes)) {
    if (!state.consoleKept) continue
    out ??= keyedRecord(nodes)
    out[id] = ended(state)
  }
  return out ?? nodes
}

export interface RunView {
  nodes: Readonly<Record<string, NodeRunState>>
  run: RunSummary | null
}

/** Words a node's error and skip lines in the UI's language; without them, the events' English. */
export interface LineLabeller {
  error(code: string, message: string): string
  /** `nodes`: the run's node states so far (a not-taken line names the condition's choice). */
  skipped(
    event: { nodeId?: string; reason: string; message?: string; failedNodeId?: string; stopped?: true },
    nodes?: Readonly<Record<string, NodeRunState>>,
  ): string
}

export interface ReduceOptions {
  badge?: BadgeLabeller
  lines?: LineLabeller
}

/** Applies `events` in order and returns the new view; untouched nodes keep their objects. */
export function reduceRunEvents(
  view: RunView,
  events: readonly RunEvent[],
  options: ReduceOptions = {},
): RunView {
  const badge = options.badge ?? englishBadge
  const lines = options.lines
  let nodes: Record<string, NodeRunState> | undefined
  let run = view.run
  const draft = (): Record<string, NodeRunState> => (nodes ??= keyedRecord(view.nodes))
  const node = (id: string): NodeRunState => nodeStateOf(nodes ?? view.nodes, id)
  const put = (id: string, state: NodeRunState): void => {
    draft()[id] = state
  }
  const settle = (failure?: RunFailure): void => {
    if (!run) return
    run = {
      ...run,
      done: run.done + 1,
      failures: failure ? [...run.failures, failure] : run.failures,
    }
  }

  for (const event of events) {
    const runGuard = run ? runGuardOf(event) : undefined
    if (run && runGuard) run = { ...run, runGuard }
    // Events of nodes inside a body or a sub-flow carry `nesting` (engine nesting.ts); those
    // from inside a sub-flow belong to the calling node of this canvas, not to their own id.
    const place = 'nodeId' in event && event.nesting !== undefined ? canvasPlace(event) : undefined
    if (place?.inner && 'nodeId' in event) {
      const shown = subflowConsole(event, place, lines)
      const caller = node(place.nodeId)
      if (shown?.kind === 'line') put(place.nodeId, withLine(caller, shown.line))
      else if (shown?.kind === 'text' && shown.text !== '') {
        // A header line whenever another node of the called flow takes over the stream.
        const headed =
          caller.innerStream === shown.from
            ? caller
            : withLine(caller, { kind: 'info', text: `› ${shown.from}` })
        put(place.nodeId, { ...withText(headed, shown.channel, shown.text), innerStream: shown.from })
      }
      continue
    }
    switch (event.type) {
      case 'runStart': {
        // A new run starts from a clean canvas: every badge and console text of the last run
        // goes; a console box that had text stays until its node ends (consoleKept).
        const last = nodes ?? view.nodes
        nodes = keyedRecord()
        for (const id of event.nodeIds) {
          const kept = nodeStateOf(last, id).consoleLines.length > 0
          nodes[id] = kept
            ? { ...IDLE_RUN_STATE, status: 'queued', consoleKept: true }
            : { ...IDLE_RUN_STATE, status: 'queued' }
        }
        run = {
          runId: event.runId,
          flowId: event.flowId,
          status: 'running',
          startedAt: event.at,
          total: event.nodeIds.length,
          done: 0,
          usage: { prompt: 0, completion: 0, total: 0, estimated: false },
          spent: NOTHING_SPENT,
          failures: [],
        }
        break
      }
      case 'nodeStart':
        put(
          event.nodeId,
          withIteration(
            { ...node(event.nodeId), status: 'running', inputs: event.inputs, startedAt: event.at },
            event,
            { status: 'running', inputs: event.inputs },
          ),
        )
        break
      case 'nodeChunk':
        put(
          event.nodeId,
          withIteration(
            withText(node(event.nodeId), event.channel, event.text),
            event,
            {},
            { kind: event.channel, text: event.text, merge: true },
          ),
        )
        break
      case 'guard':
        put(
          event.nodeId,
          withIteration(
            withGuard(node(event.nodeId), event, badge),
            event,
            {},
            { kind: 'guard', text: event.message, merge: false, layer: event.layer, level: event.level },
          ),
        )
        break
      case 'nodeFinish': {
        const state: NodeRunState = {
          ...ended(node(event.nodeId)),
          status: event.status,
          output: event.output,
          durationMs: event.durationMs,
        }
        if (event.usage) state.usage = event.usage
        if (event.notTaken) state.notTaken = event.notTaken
        if (event.cached) state.cached = event.cached
        put(
          event.nodeId,
          withIteration(state, event, {
            status: event.status,
            output: event.output,
            durationMs: event.durationMs,
          }),
        )
        // A body node settles once per iteration; the run counts its loop, not them.
        if (event.nesting === undefined) settle()
        if (run && event.usage && event.nesting === undefined)
          run = { ...run, spent: withNodeSpent(run.spent, event.nodeId, event.usage) }
        break
      }
      case 'nodeError': {
        const stopped = event.code === 'CANCELLED'
        const errorText = lines ? lines.error(event.code, event.message) : event.message
        const base = withLine(ended(node(event.nodeId)), {
          kind: stopped ? 'info' : 'error',
          text: errorText,
        })
        const error = { code: event.code, message: errorText }
        const status = stopped ? 'stopped' : 'error'
        put(
          event.nodeId,
          withIteration(
            { ...base, status, error, durationMs: event.durationMs },
            event,
            { status, error, durationMs: event.durationMs },
            { kind: stopped ? 'info' : 'error', text: errorText, merge: false },
          ),
        )
        if (event.nesting === undefined)
          settle(stopped ? undefined : { nodeId: event.nodeId, code: event.code, message: errorText })
        break
      }
      case 'nodeSkipped': {
        const skipText = lines ? lines.skipped(event, nodes ?? view.nodes) : (event.message ?? event.reason)
        const skipped: NodeRunState = {
          ...withLine(ended(node(event.nodeId)), { kind: 'info', text: skipText }),
          status: 'skipped',
          skipReason: skipText,
          skipCode: event.reason,
        }
        put(
          event.nodeId,
          withIteration(
            skipped,
            event,
            { status: 'skipped', skipReason: skipText },
            { kind: 'info', text: skipText, merge: false },
          ),
        )
        if (event.nesting === undefined) settle()
        break
      }
      case 'runFinish':
        if (run) {
          run = {
            ...run,
            status: event.status,
            usage: event.usage,
            spent: withRunFinished(run.spent, event.usage),
            durationMs: event.durationMs,
            finishedAt: event.at,
          }
        }
        break
    }
  }
  return { nodes: nodes ?? view.nodes, run }
}

/** The view a saved run's events produce: how a past run is shown again. */
export function replayRunEvents(events: readonly RunEvent[], options: ReduceOptions = {}): RunView {
  return reduceRunEvents({ nodes: keyedRecord(), run: null }, events, options)
}
