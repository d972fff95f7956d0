/**
 * What one run produced, read from its events: the status, the Output nodes' values merged by
 * key, the usage, the first failure and the guard events. The shape of a `batch --out` line and
 * of a queue result, and what a cassette expects.
 */
import { emptyUsage, type RunEvent, type Usage } from '../engine/index.ts'
import type { RecordedGuard, RunExpectation } from './format.ts'

export interface RunOutcome {
  status: string
  outputs: Record<string, unknown>
  usage: Usage
  /** `nodeId: message` of the first node that failed, when one did. */
  error?: string
  guards: RecordedGuard[]
}

/** One line of `batch --out` and `enqueue --wait`. */
export interface RowResult {
  row: number
  status: string
  outputs: Record<string, unknown>
  usage: Usage
  error?: string
}

export class OutcomeCollector {
  private status = 'error'
  private usage: Usage = emptyUsage()
  private error: string | undefined
  private readonly outputs: Record<string, unknown> = {}
  private readonly guards: RecordedGuard[] = []

  /** @param isOutputNode whether a node of the run's flow is an Output node. */
  constructor(private readonly isOutputNode: (nodeId: string) => boolean) {}

  push(event: RunEvent): void {
    const top = event.nesting === undefined || event.nesting.length === 0
    switch (event.type) {
      case 'nodeFinish':
        if (top && this.isOutputNode(event.nodeId)) Object.assign(this.outputs, event.output)
        break
      case 'nodeError':
        this.error ??= `${event.nodeId}: ${event.message}`
        break
      case 'guard': {
        const { runId: _runId, at: _at, type: _type, ...guard } = event
        this.guards.push(guard)
        break
      }
      case 'runFinish':
        this.status = event.status
        this.usage = event.usage
        break
      default:
    }
  }

  outcome(): RunOutcome {
    return {
      status: this.status,
      outputs: { ...this.outputs },
      usage: this.usage,
      ...(this.error === undefined ? {} : { error: this.error }),
      guards: [...this.guards],
    }
  }

  expectation(): RunExpectation {
    return { status: this.status, outputs: { ...this.outputs }, guards: [...this.guards] }
  }
}

/** The `--out` line of row `row`. */
export function rowResult(row: number, outcome: RunOutcome): RowResult {
  return {
    row,
    status: outcome.status,
    outputs: outcome.outputs,
    usage: outcome.usage,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  }
}
