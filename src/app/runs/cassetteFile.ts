/**
 * A saved run as the cassette file the History tab downloads (`run-cassette-download`), which
 * `wardflow run <flow> --replay <file>` and `wardflow test <folder>` play with no network
 * (flow-control.md "CLI"). Loaded on the first download only (runService's `downloadCassette`).
 */
import { cassetteFromRun } from '../../cassette/fromRun.ts'
import { scrubSecrets } from '../../engine/index.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { workflowFileName } from '../../storage/workflowFile.ts'
import { readFlowSnapshot } from './flowSnapshot.ts'
import { parseStoredEvents } from './runEventSchema.ts'

export interface CassetteFileOptions {
  /** Every key and secret header value in settings: never in the file. */
  secrets: readonly string[]
  /** The live flow's nodes, for a record saved without a copy of its flow. */
  liveNodes?: ReadonlyArray<{ id: string; type: string; provider?: string }>
  /** The live flow's name, for a record saved without a copy of its flow. */
  liveName?: string
}

/**
 * `<flow name>.cassette.json`: beside the flow's export (`<flow name>.wardflow.json`) it is
 * the pair `wardflow test` looks for.
 */
export function cassetteFileName(record: RunRecord, liveName = ''): string {
  const name = readFlowSnapshot(record.flow).name ?? liveName
  return workflowFileName(name).replace(/\.wardflow\.json$/, '.cassette.json')
}

/** The record as cassette JSON text, secrets scrubbed; and how many calls may not replay. */
export function cassetteFileOf(
  record: RunRecord,
  options: CassetteFileOptions,
): { text: string; inexactCalls: number } {
  const { nodes } = readFlowSnapshot(record.flow)
  for (const node of options.liveNodes ?? []) if (!nodes.has(node.id)) nodes.set(node.id, node)
  const { cassette, inexactCalls } = cassetteFromRun({
    events: parseStoredEvents(record.events),
    inputs: record.inputs,
    isOutputNode: (id) => {
      const node = nodes.get(id)
      return node !== undefined && nodeCatalog.role(node.type) === 'flowOutput'
    },
    providerOf: (id) => nodes.get(id)?.provider,
  })
  // Records are scrubbed when saved; scrub again with today's keys (a key added since). On the
  // values, before JSON escapes a key holding a quote or a backslash past a text search.
  const text = JSON.stringify(scrubSecrets(cassette, options.secrets), null, 2)
  return { text: `${text}\n`, inexactCalls }
}
