/**
 * Builds a run's record in memory while it streams (nothing touches IndexedDB until the end):
 * its events with each node's consecutive chunks merged, node outputs and timings, status and
 * usage. The run service saves the result once, when `runFinish` arrives.
 */
import {
  keyedRecord,
  nodeStreamKey,
  ownValue,
  type NodeChunkEvent,
  type RunEvent,
  type Usage,
} from '../../engine/index.ts'
import type { NodeTiming, RunRecord } from '../../storage/rows.ts'

export class RunRecorder {
  private readonly events: RunEvent[] = []
  // Keyed by node id, which may be any name (`__proto__` too): records without a prototype.
  private readonly outputs = keyedRecord<Record<string, unknown>>()
  private readonly timings = keyedRecord<NodeTiming>()
  /**
   * Index of each node stream's last event while it is a chunk more text may be merged into, by
   * node and place (nesting.ts `nodeStreamKey`: a body node's iterations and a sub-flow's nodes are
   * streams of their own).
   */
  private readonly openChunk = new Map<string, number>()
  private startedAt: number | undefined
  private finish: { at: number; status: RunRecord['status']; usage: Usage } | undefined

  constructor(
    private readonly flowId: string,
    private readonly inputs: Readonly<Record<string, string>> = {},
  ) {}

  push(event: RunEvent): void {
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
    if (!this.finish) return undefined
    const first = this.events[0]
    const runId = first?.runId ?? ''
    return {
      id: runId,
      flowId: this.flowId,
      startedAt: this.startedAt ?? this.finish.at,
      finishedAt: this.finish.at,
      status: this.finish.status,
      inputs: keyedRecord(this.inputs),
      outputs: keyedRecord(this.outputs),
      events: [...this.events],
      usage: { ...this.finish.usage },
      timings: keyedRecord(this.timings),
    }
  }

  private time(nodeId: string, at: number, durationMs: number): void {
    this.timings[nodeId] = {
      startedAt: ownValue(this.timings, nodeId)?.startedAt ?? at - durationMs,
      durationMs,
    }
  }

  private keep(event: RunEvent): void {
    if (event.type !== 'nodeChunk') {
      if ('nodeId' in event) this.openChunk.delete(nodeStreamKey(event))
      this.events.push(event)
      return
    }
    const key = nodeStreamKey(event)
    const at = this.openChunk.get(key)
    const last = at === undefined ? undefined : (this.events[at] as NodeChunkEvent)
    if (last && at !== undefined && last.channel === event.channel) {
      this.events[at] = { ...last, text: last.text + event.text }
      return
    }
    this.openChunk.set(key, this.events.length)
    this.events.push(event)
  }
}
