/**
 * One row's run in the browser: the open flow with the row's Input values, through the same
 * engine, providers, sandbox and key handling as the Run button (RunResources), its events
 * scrubbed of secrets, folded into the row's result (src/batch/result.ts) and into a run record
 * that the batch stores so the row's run can be opened on the canvas.
 */
import {
  EventScrubber,
  runFlow,
  toFlowError,
  type FlowDocument,
  type FlowLookup,
  type NodeRegistry,
  type RunEvent,
  type SharedRunBudget,
} from '../../engine/run.ts'
import { RowResultCollector, type RowResult } from '../../batch/result.ts'
import type { RunRecord } from '../../storage/rows.ts'
import type { RunResources } from '../runs/RunResources.ts'
import { RunRecorder } from '../runs/runRecorder.ts'

export interface RowRunSetup {
  doc: FlowDocument
  /** The flow with the nodes of the flows it calls (what the run needs: sandbox, keys). */
  needs: FlowDocument
  registry: NodeRegistry
  flows: FlowLookup
  resources: RunResources
  outputNodes: readonly string[]
  secrets: readonly string[]
  signal: AbortSignal
  newRunId(): string
}

export interface RowRun {
  result: RowResult
  record: RunRecord | undefined
}

/** `budget`: the batch's one ledger, charged by every row (its trip stops the rows running). */
export async function runOneRow(
  setup: RowRunSetup,
  row: number,
  inputs: Record<string, string>,
  budget?: SharedRunBudget,
): Promise<RowRun> {
  const runId = setup.newRunId()
  const collector = new RowResultCollector(row, setup.outputNodes)
  const recorder = new RunRecorder(setup.doc.metadata.id, inputs)
  let thrown: string | undefined
  try {
    const ctx = {
      ...(await setup.resources.context(runId, setup.signal, setup.needs)),
      flows: setup.flows,
      inputs,
      ...(budget ? { sharedBudget: budget } : {}),
    }
    const scrubber = new EventScrubber(setup.secrets)
    const pass = (event: RunEvent): void => {
      recorder.push(event)
      collector.push(event)
    }
    try {
      for await (const raw of runFlow(setup.doc, setup.registry, ctx)) scrubber.push(raw).forEach(pass)
    } finally {
      scrubber.end().forEach(pass)
    }
  } catch (error) {
    thrown = toFlowError(error).message
  }
  return { result: collector.result(thrown), record: recorder.record() }
}
