/**
 * `--trace FILE` and `--otlp URL`: the run's events (already scrubbed, as printed) as OTLP JSON
 * spans (engine/trace), written to a file and/or POSTed to an OTLP/HTTP collector. `--otlp`
 * takes the collector's base URL (as OTEL_EXPORTER_OTLP_ENDPOINT does: `/v1/traces` is added
 * to its path) or the full traces URL (a path ending in `/v1/traces`, as
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, used as it is). Header values are never printed.
 */
import { writeFile } from 'node:fs/promises'
import { OTLP_EXPORT_TIMEOUT_MS } from '../defaults.ts'
import type { FlowDocument, RunEvent } from '../engine/run.ts'
import { runToOtlp } from '../engine/trace/otlp.ts'
import type { RunOptions } from './args.ts'

/** The URL the spans are POSTed to. */
export function otlpTracesUrl(given: string): string {
  const url = new URL(given)
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`
  return url.href
}

/** The URL as it may be printed: no user name, password or query (they may hold a token). */
export function printableUrl(given: string): string {
  const url = new URL(given)
  return `${url.origin}${url.pathname}`
}

export interface TraceTarget {
  options: RunOptions
  /** The flows that ran (the file's and the ones it carries), for node types. */
  docs: readonly FlowDocument[]
  /** What is never printed, the `--otlp-header` values among them (main.ts adds them). */
  secrets: readonly string[]
  version: string
  fetch: (input: string, init?: RequestInit) => Promise<Response>
}

/** Writes and sends the trace; resolves with the problems (worded for stderr), none when all went. */
export async function exportTrace(events: readonly RunEvent[], target: TraceTarget): Promise<string[]> {
  const { options } = target
  if (options.trace === undefined && options.otlp === undefined) return []
  const nodeTypes: Record<string, string> = {}
  for (const doc of target.docs) for (const node of doc.nodes) nodeTypes[node.id] ??= node.type
  const main = target.docs[0]
  const trace = runToOtlp(events, {
    content: options.traceContent,
    secrets: target.secrets,
    nodeTypes,
    ...(main ? { flowName: main.metadata.name } : {}),
    version: target.version,
  })
  const body = JSON.stringify(trace)
  const problems: string[] = []
  if (options.trace !== undefined) {
    try {
      await writeFile(options.trace, `${body}\n`, 'utf8')
    } catch (error) {
      problems.push(`could not write the trace to ${options.trace}: ${(error as Error).message}`)
    }
  }
  if (options.otlp !== undefined) {
    const url = otlpTracesUrl(options.otlp)
    try {
      const response = await target.fetch(url, {
        method: 'POST',
        headers: { ...options.otlpHeaders, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(OTLP_EXPORT_TIMEOUT_MS),
      })
      if (!response.ok)
        problems.push(`the collector at ${printableUrl(url)} answered HTTP ${response.status}`)
      await response.body?.cancel()
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer in ${OTLP_EXPORT_TIMEOUT_MS} ms`
          : (error as Error).message
      problems.push(`could not send the trace to ${printableUrl(url)}: ${reason}`)
    }
  }
  return problems
}
