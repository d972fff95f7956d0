/**
 * Builds a run's record in memory while it streams: its events with each node's consecutive
 * chunks merged, node outputs and timings, status and usage. `snapshot()` is the record so far
 * (status `interrupted`), which the run service writes at node ends (never per streamed token,
 * see IncrementalRecord); `record()` is the finished one, once `runFinish` arrived. Events of
 * loop bodies are kept for the newest iterations only (iterationWindow.ts).
 */
import {
  addUsage,
  emptyUsage,
  keyedRecord,
  nodeStreamKey,
  ownValue,
  type NodeCached,
  type NodeChunkEvent,
  type RunEvent,
  type Usage,
} from '../../engine/index.ts'
import type { NodeTiming, RunRecord } from '../../storage/rows.ts'
import { IterationWindow } from './iterationWindow.ts'

export class RunRecorder {
  // By sequence number: a Map keeps insertion order and drops an old iteration's events in O(1).
  private readonly events = new Map<number, RunEvent>()
  private seq = 0
  private readonly window: IterationWindow
  // Keyed by node id, which may be any name (`__proto__` too): records without a prototype.
  private readonly outputs = keyedRecord<Record<string, unknown>>()
  private readonly timings = keyedRecord<NodeTiming>()
  private readonly reused = keyedRecord<NodeCached>()
  /**
   * Sequence number of each node stream's last event while it is a chunk more text may be merged
   * into, by node and place (nesting.ts `nodeStreamKey`: a body node's iterations and a sub-flow's
   * nodes are streams of their own).
   */
  private readonly openChunk = new Map<string, number>()
  private startedAt: number | undefined
  private lastAt: number | undefined
  private usage: Usage = emptyUsage()
  private runId: string | undefined
  private finish: { at: number; status: RunRecord['status']; usage: Usage } | undefined
  private about: Pick<RunRecord, 'flow' | 'forkedFrom'> = {}

  constructor(
    private readonly flowId: string,
    private readonly inputs: Readonly<Record<string, string>> = {},
    private readonly parentRunId?: string,
    storedIterationsMax?: number,
  ) {
    this.window = new IterationWindow((seq) => this.events.delete(seq), storedIterationsMax)
  }

  /** What the record keeps about the run besides its events: the flow as it ran, its fork parent. */
  describe(about: Pick<RunRecord, 'flow' | 'forkedFrom'>): void {
    this.about = about
  }

  push(event: RunEvent): void {
    this.runId ??= event.runId
    this.lastAt = event.at
    // Events of body nodes and sub-flows' nodes are kept, but are not this flow's outputs or timings.
    if (event.nesting !== undefined) {
      this.keep(event)
      return
    }
    switch (event.type) {
      case 'runStart':
        this.startedAt = event.at
        break
      case 'nodeStart':
        this.timings[event.nodeId] = { startedAt: event.at, durationMs: 0 }
        break
      case 'nodeFinish':
        this.outputs[event.nodeId] = event.output
        if (event.cached) this.reused[event.nodeId] = event.cached
        if (event.usage) this.usage = addUsage(this.usage, event.usage)
        this.time(event.nodeId, event.at, event.durationMs)
        break
      case 'nodeError':
        this.time(event.nodeId, event.at, event.durationMs)
        break
      case 'runFinish':
        this.finish = { at: event.at, status: event.status, usage: event.usage }
        break
      default:
        break
    }
    this.keep(event)
  }

  /** The finished record, or undefined while the run has not finished. */
  record(): RunRecord | undefined {
    return this.finish ? this.build(this.finish) : undefined
  }

  /**
   * The record as it stands: what a reload now would leave (status `interrupted`, usage of the
   * nodes that finished); undefined before the run started.
   */
  snapshot(): RunRecord | undefined {
    if (this.finish) return this.build(this.finish)
    if (this.lastAt === undefined) return undefined
    return this.build({ at: this.lastAt, status: 'interrupted', usage: this.usage })
  }

  private build(finish: { at: number; status: RunRecord['status']; usage: Usage }): RunRecord {
    const notKept = this.window.counts()
    return {
      id: this.runId ?? '',
      flowId: this.flowId,
      startedAt: this.startedAt ?? finish.at,
      finishedAt: finish.at,
      status: finish.status,
      inputs: keyedRecord(this.inputs),
      outputs: keyedRecord(this.outputs),
      events: [...this.events.values()],
      usage: { ...finish.usage },
      timings: keyedRecord(this.timings),
      ...(Object.keys(notKept).length > 0 ? { iterationsNotKept: keyedRecord(notKept) } : {}),
      ...(Object.keys(this.reused).length > 0 ? { reused: keyedRecord(this.reused) } : {}),
      ...(this.parentRunId ? { parentRunId: this.parentRunId } : {}),
      ...(this.about.flow === undefined ? {} : { flow: this.about.flow }),
      ...(this.about.forkedFrom ? { forkedFrom: { ...this.about.forkedFrom } } : {}),
    }
  }

  private time(nodeId: string, at: number, durationMs: number): void {
    this.timings[nodeId] = {
      startedAt: ownValue(this.timings, nodeId)?.startedAt ?? at - durationMs,
      durationMs,
    }
  }

  private keep(event: RunEvent): void {
    const seq = this.seq++
    if (!this.window.admit(event, seq)) return
    if (event.type !== 'nodeChunk') {
      if ('nodeId' in event) this.openChunk.delete(nodeStreamKey(event))
      this.events.set(seq, event)
      return
    }
    const key = nodeStreamKey(event)
    const at = this.openChunk.get(key)
    const last = at === undefined ? undefined : (this.events.get(at) as NodeChunkEvent | undefined)
    if (last && at !== undefined && last.channel === event.channel) {
      this.events.set(at, { ...last, text: last.text + event.text })
      return
    }
    this.openChunk.set(key, seq)
    this.events.set(seq, event)
  }
}
