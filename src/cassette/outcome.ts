/**
 * What one run produced, read from its events: the status, the Output nodes' values merged by
 * key and the guard events; what a cassette expects and `wardflow test` compares.
 */
import type { RunEvent } from '../engine/index.ts'
import type { RecordedGuard, RunExpectation } from './format.ts'

export class OutcomeCollector {
  private status = 'error'
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
      case 'guard': {
        const { runId: _runId, at: _at, type: _type, ...guard } = event
        this.guards.push(guard)
        break
      }
      case 'runFinish':
        this.status = event.status
        break
      default:
    }
  }

  expectation(): RunExpectation {
    return { status: this.status, outputs: { ...this.outputs }, guards: [...this.guards] }
  }
}
