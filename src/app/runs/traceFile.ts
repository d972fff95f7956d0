/**
 * A saved run's trace as the OTLP JSON file the History tab downloads (flow-control.md
 * "Traces"; the same spans `wardflow run --trace` writes). Loaded on the first download only
 * (runService's `downloadTrace` imports it), so the trace builder never weighs on page start.
 */
import type { RunEvent } from '../../engine/index.ts'
import { runToOtlp } from '../../engine/trace/otlp.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { readFlowSnapshot } from './flowSnapshot.ts'

export interface TraceFileOptions {
  /** Put prompts, replies, tool arguments/results and node inputs/outputs in (off by default). */
  content: boolean
  /** Every key and secret header value in settings: never in the file, content or not. */
  secrets: readonly string[]
  /** The live flow's node types, for nodes the record's snapshot does not name. */
  liveTypes?: Readonly<Record<string, string>>
}

/** The file's name: the run id is the trace id's source, so the same run gives the same name. */
export function traceFileName(record: RunRecord): string {
  return `wardflow-trace-${record.id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`
}

/** The record's events as OTLP JSON text (ExportTraceServiceRequest), secrets scrubbed. */
export function traceFileOf(record: RunRecord, options: TraceFileOptions): string {
  const snapshot = readFlowSnapshot(record.flow)
  const nodeTypes = { ...options.liveTypes }
  for (const [id, node] of snapshot.nodes) nodeTypes[id] = node.type
  const trace = runToOtlp(record.events as RunEvent[], {
    content: options.content,
    secrets: options.secrets,
    nodeTypes,
    ...(snapshot.name ? { flowName: snapshot.name } : {}),
    status: record.status,
  })
  return `${JSON.stringify(trace)}\n`
}
