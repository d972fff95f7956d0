/**
 * One HTTP call to a model API: retries for 429/5xx (honouring Retry-After, with exponential
 * backoff), an idle watchdog, an overall deadline, caps on what is read, and abort handling that
 * answers at once even when the injected fetch is slow to notice. Retries happen only before any
 * byte of a reply was delivered.
 */
import {
  PROVIDER_BACKOFF_BASE_MS,
  PROVIDER_BACKOFF_MAX_MS,
  PROVIDER_CALL_DEADLINE_MS,
  PROVIDER_ERROR_BODY_READ_MAX_BYTES,
  PROVIDER_MAX_RETRIES,
  PROVIDER_REPLY_MAX_CHARS,
  PROVIDER_REQUEST_TIMEOUT_MS,
  PROVIDER_RETRY_AFTER_MAX_MS,
  PROVIDER_STREAM_PIECE_CHARS,
  PROVIDER_STREAM_SLICE_MS,
} from '../defaults.ts'
import { FlowError, isAbortError, raceAbort, type Clock, type FetchLike } from '../engine/index.ts'
import {
  badResponseError,
  cancelledError,
  droppedError,
  extractServerMessage,
  httpStatusError,
  isRetryableStatus,
  networkError,
  parseRetryAfter,
  type CallTarget,
} from './errors.ts'

/** Host abilities every HTTP provider needs. */
export interface TransportDeps {
  fetch: FetchLike
  clock: Clock
  /**
   * How long the server may stay silent (before the reply starts or between two reads) before the
   * call fails with PROVIDER_NETWORK; 0 disables. Defaults to PROVIDER_REQUEST_TIMEOUT_MS.
   */
  requestTimeoutMs?: number
  /**
   * The most one call may take in all (request, retries, the whole reply); 0 disables. Defaults
   * to PROVIDER_CALL_DEADLINE_MS.
   */
  callDeadlineMs?: number
}

/**
 * Called with the server's message after an HTTP 400; returning true re-sends the request at
 * once (the builder has adapted the body, e.g. dropped a parameter the server refuses).
 */
export type BadRequestAdapter = (serverMessage: string) => boolean

/** What a call rejects with once `signal` aborts: the abort's own error, else CANCELLED. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : cancelledError()
}

/** One attempt: a signal linked to the caller's, plus the idle watchdog and the call's deadline. */
class CallScope {
  private readonly controller = new AbortController()
  private readonly stopWatch = new AbortController()
  private last: number
  private timedOut: FlowError | undefined
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason)

  constructor(
    private readonly deps: TransportDeps,
    private readonly outer: AbortSignal,
    private readonly target: CallTarget,
    /** When the whole call must have ended (clock time), or undefined for never. */
    private readonly deadlineAt: number | undefined,
  ) {
    this.last = deps.clock.now()
    outer.addEventListener('abort', this.onOuterAbort, { once: true })
    const timeout = deps.requestTimeoutMs ?? PROVIDER_REQUEST_TIMEOUT_MS
    if (timeout > 0 || deadlineAt !== undefined) void this.watch(timeout)
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  touch(): void {
    this.last = this.deps.clock.now()
  }

  get clock(): Clock {
    return this.deps.clock
  }

  /** Watches the idle timeout (`timeoutMs` > 0) and the deadline, whichever comes first. */
  private async watch(timeoutMs: number): Promise<void> {
    const { clock } = this.deps
    try {
      for (;;) {
        const before = clock.now()
        const idle = timeoutMs > 0 ? timeoutMs - (before - this.last) : Infinity
        const left = this.deadlineAt === undefined ? Infinity : this.deadlineAt - before
        if (idle <= 0 || left <= 0) {
          this.timedOut = idle <= 0 ? this.timeoutError(timeoutMs) : this.deadlineError()
          this.controller.abort(this.timedOut)
          return
        }
        const remaining = Math.min(idle, left)
        await clock.sleep(remaining, this.stopWatch.signal)
        // A fake clock whose time stands still cannot measure a timeout; stop instead of spinning.
        // Only a sleep of the whole timeout tells: a real timer for the last millisecond or two
        // may fire before Date.now() moves on (Node's timers keep their own time), and stopping
        // then would leave a silent server waited on forever.
        if ((remaining === timeoutMs || remaining === left) && clock.now() === before) return
      }
    } catch {
      // Stopped: the call finished.
    }
  }

  private deadlineError(): FlowError {
    const deadlineMs = this.deps.callDeadlineMs ?? PROVIDER_CALL_DEADLINE_MS
    return new FlowError(
      'PROVIDER_NETWORK',
      `${this.target.label} did not finish its reply within ${Math.round(deadlineMs / 1000)} s, the most one model call may take, so the call was given up. If a reply really needs longer, raise "Model call deadline" (Settings, Runtime protection).`,
      { details: { provider: this.target.label, url: this.target.url, deadlineMs } },
    )
  }

  private timeoutError(timeoutMs: number): FlowError {
    return new FlowError(
      'PROVIDER_NETWORK',
      `${this.target.label} sent nothing for ${Math.round(timeoutMs / 1000)} s (keep-alive comments do not count), so the call was given up. Check that the server at ${this.target.url} is running and not overloaded.`,
      { details: { provider: this.target.label, url: this.target.url, timeoutMs } },
    )
  }

  /** Converts anything thrown during the attempt into the FlowError to report. */
  error(thrown: unknown, fallback: (cause: unknown) => FlowError): FlowError {
    if (this.outer.aborted) return cancelledError(thrown)
    if (this.timedOut) return this.timedOut
    if (thrown instanceof FlowError) return thrown
    if (isAbortError(thrown)) return cancelledError(thrown)
    return fallback(thrown)
  }

  close(): void {
    this.stopWatch.abort()
    this.outer.removeEventListener('abort', this.onOuterAbort)
  }
}

/** A successful (2xx) response whose body is still to be read. Always `close()` it. */
export class OpenCall {
  /** Characters of the body read so far (framing included), checked against the reply cap. */
  private received = 0

  constructor(
    readonly response: Response,
    private readonly scope: CallScope,
    readonly target: CallTarget,
  ) {}

  /** Tells the idle watchdog that the server sent something of the reply. */
  progress(): void {
    this.scope.touch()
  }

  /**
   * Decoded body text as it arrives, up to PROVIDER_REPLY_MAX_CHARS. Every read resets the idle
   * watchdog unless `resetIdleOnRead` is false: a stream reader then calls `progress()` for
   * what counts (SSE events, not keep-alive comments).
   */
  async *text({ resetIdleOnRead = true }: { resetIdleOnRead?: boolean } = {}): AsyncGenerator<string> {
    const body = this.response.body
    if (body === null) throw badResponseError(this.target, 'the reply has no body')
    const reader = body.getReader()
    const decoder = new TextDecoder()
    const { signal } = this.scope
    // One abort listener for the whole body, not one per read (a streamed reply is thousands of
    // reads): aborting cancels the reader, which ends the pending read at once.
    const onAbort = () => void reader.cancel().catch(() => undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    const stopped = () => this.scope.error(signal.reason, (cause) => droppedError(cause, this.target))
    try {
      const { clock } = this.scope
      // When this stream last gave the thread a turn for other work (drawing the page). A read
      // that waited for the network may have given one too, but nothing here can tell a wait
      // from a busy thread, so only the stream's own sleeps count: at worst a slow stream sleeps
      // 0 ms before a read's text, which costs it nothing.
      let sliceStart = clock.now()
      for (;;) {
        if (signal.aborted) throw stopped()
        let step: ReadableStreamReadResult<Uint8Array>
        try {
          step = await reader.read()
        } catch (error) {
          throw this.scope.error(error, (cause) => droppedError(cause, this.target))
        }
        // A read that ended because the call was aborted is no end of the reply.
        if (signal.aborted) throw stopped()
        if (resetIdleOnRead) this.scope.touch()
        if (step.done) {
          const tail = decoder.decode()
          if (tail !== '') yield tail
          return
        }
        const text = decoder.decode(step.value, { stream: true })
        this.received += text.length
        if (this.received > PROVIDER_REPLY_MAX_CHARS) {
          throw badResponseError(
            this.target,
            `the reply is longer than ${PROVIDER_REPLY_MAX_CHARS / 1_048_576} M characters, the most Wardflow reads of one reply, so it was cut off`,
          )
        }
        // Everything a piece triggers downstream (parsing, node events, the run's consumers)
        // runs before the next piece is asked for, so the slice measures all of that work.
        for (let at = 0; at < text.length; at += PROVIDER_STREAM_PIECE_CHARS) {
          if (clock.now() - sliceStart >= PROVIDER_STREAM_SLICE_MS) {
            try {
              await clock.sleep(0, this.scope.signal)
            } catch (error) {
              throw this.scope.error(error, (cause) => droppedError(cause, this.target))
            }
            sliceStart = clock.now()
          }
          yield text.slice(at, at + PROVIDER_STREAM_PIECE_CHARS)
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort)
      reader.cancel().catch(() => undefined)
    }
  }

  /** The whole body parsed as JSON (non-streaming replies). */
  async json(): Promise<unknown> {
    let text = ''
    for await (const part of this.text()) text += part
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      throw badResponseError(this.target, 'the reply is not JSON', error)
    }
  }

  close(): void {
    this.scope.close()
  }
}

/**
 * Sends a request built by `build` (called again for every attempt), retrying rate limits and
 * server errors before any reply byte arrived. Throws PROVIDER_* FlowErrors, or CANCELLED.
 */
export async function sendRequest(
  deps: TransportDeps,
  target: CallTarget,
  build: () => RequestInit,
  signal: AbortSignal,
  adapt?: BadRequestAdapter,
): Promise<OpenCall> {
  let retries = 0
  const deadlineMs = deps.callDeadlineMs ?? PROVIDER_CALL_DEADLINE_MS
  const deadlineAt = deadlineMs > 0 ? deps.clock.now() + deadlineMs : undefined
  for (;;) {
    if (signal.aborted) throw cancelledError(signal.reason)
    const scope = new CallScope(deps, signal, target, deadlineAt)
    let response: Response
    try {
      // Called unbound: a browser's window.fetch throws "Illegal invocation" when `this` is `deps`.
      const fetchFn = deps.fetch
      response = await raceAbort(
        fetchFn(target.url, { ...build(), signal: scope.signal }),
        scope.signal,
        () => abortReason(scope.signal),
      )
    } catch (error) {
      scope.close()
      throw scope.error(error, (cause) => networkError(cause, target))
    }
    scope.touch()
    if (response.ok) return new OpenCall(response, scope, target)

    let bodyText = ''
    try {
      bodyText = await raceAbort(readErrorBody(response), scope.signal, () => abortReason(scope.signal))
    } catch (error) {
      if (signal.aborted) throw cancelledError(error)
    } finally {
      scope.close()
    }
    const message = extractServerMessage(bodyText)
    if (response.status === 400 && adapt?.(message) === true) continue
    if (!isRetryableStatus(response.status) || retries >= PROVIDER_MAX_RETRIES) {
      throw httpStatusError(response.status, message, target, { attempts: retries + 1 })
    }
    const retryAfterMs = parseRetryAfter(response.headers, deps.clock.now())
    if (retryAfterMs !== undefined && retryAfterMs > PROVIDER_RETRY_AFTER_MAX_MS) {
      throw httpStatusError(response.status, message, target, { attempts: retries + 1, retryAfterMs })
    }
    const backoffMs = Math.min(PROVIDER_BACKOFF_BASE_MS * 2 ** retries, PROVIDER_BACKOFF_MAX_MS)
    retries += 1
    try {
      await deps.clock.sleep(retryAfterMs ?? backoffMs, signal)
    } catch (error) {
      throw cancelledError(error)
    }
  }
}

/**
 * The start of an error body, at most PROVIDER_ERROR_BODY_READ_MAX_BYTES: only a short message
 * is shown, so the rest is never downloaded (a 300 MB body grew the CLI to 1.35 GB).
 */
export async function readErrorBody(response: Response): Promise<string> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    while (bytes < PROVIDER_ERROR_BODY_READ_MAX_BYTES) {
      const { done, value } = await reader.read()
      if (done) return text + decoder.decode()
      const room = PROVIDER_ERROR_BODY_READ_MAX_BYTES - bytes
      const part = value.byteLength > room ? value.subarray(0, room) : value
      bytes += part.byteLength
      text += decoder.decode(part, { stream: true })
    }
    return text
  } finally {
    reader.cancel().catch(() => undefined)
  }
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

/** Settings headers with a key, skipping empty rows. */
export function extraHeaders(headers: ReadonlyArray<{ key: string; value: string }>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const { key, value } of headers) if (key.trim() !== '') out[key.trim()] = value
  return out
}
