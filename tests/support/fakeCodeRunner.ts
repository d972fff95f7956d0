/**
 * A CodeRunner stand-in for engine and node tests that do not need the real QuickJS sandbox
 * (the sandbox has its own suite). The test supplies what "running" a piece of code means;
 * every request is recorded; aborts reject with CANCELLED and, given a clock, `timeoutMs`
 * rejects with SANDBOX_TIMEOUT just as the real runners do.
 */
import {
  FlowError,
  type Clock,
  type CodeRunRequest,
  type CodeRunResult,
  type CodeRunner,
} from '../../src/engine/index.ts'

/** Returns the code's result; push onto `logs` to simulate console.log. */
export type FakeCodeHandler = (request: CodeRunRequest, logs: string[]) => unknown | Promise<unknown>

export interface FakeCodeRunnerOptions {
  /** Enables the timeout: the run rejects with SANDBOX_TIMEOUT after `timeoutMs` on this clock. */
  clock?: Clock
}

export class FakeCodeRunner implements CodeRunner {
  readonly requests: CodeRunRequest[] = []
  private readonly handler: FakeCodeHandler
  private readonly options: FakeCodeRunnerOptions

  constructor(handler: FakeCodeHandler, options: FakeCodeRunnerOptions = {}) {
    this.handler = handler
    this.options = options
  }

  async run(request: CodeRunRequest): Promise<CodeRunResult> {
    this.requests.push(request)
    const { signal } = request
    if (signal.aborted) throw new FlowError('CANCELLED', 'The run was stopped.')
    const logs: string[] = []
    const stop = new AbortController()
    const racers: Array<Promise<unknown>> = [
      Promise.resolve().then(() => this.handler(request, logs)),
      new Promise<never>((_resolve, reject) => {
        const onAbort = (): void => reject(new FlowError('CANCELLED', 'The run was stopped.'))
        signal.addEventListener('abort', onAbort, { once: true })
        stop.signal.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), {
          once: true,
        })
      }),
    ]
    const clock = this.options.clock
    if (clock) {
      racers.push(
        clock.sleep(request.timeoutMs, stop.signal).then(
          () => {
            throw new FlowError(
              'SANDBOX_TIMEOUT',
              `The code ran longer than ${request.timeoutMs} ms and was stopped.`,
            )
          },
          () => undefined as never,
        ),
      )
    }
    try {
      const result = await Promise.race(racers)
      return { result: result === undefined ? null : result, logs }
    } finally {
      stop.abort()
    }
  }
}

/** Shorthand: `fakeCodeRunner(({ bindings }) => bindings.inputs)`. */
export function fakeCodeRunner(handler: FakeCodeHandler, options?: FakeCodeRunnerOptions): FakeCodeRunner {
  return new FakeCodeRunner(handler, options)
}
