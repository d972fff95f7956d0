import { scrubText } from '../engine/index.ts'

/**
 * A write target that survives its reader going away (`wardflow run f.json | head`): the first
 * error (EPIPE) marks it closed and tells the run to stop; later writes are dropped instead of
 * crashing the process with an unhandled 'error' event. Every configured secret is scrubbed
 * from what it writes (streamed text is scrubbed before, across pieces, see EventScrubber).
 */
export class Output {
  private closed = false
  private onClosed: (() => void) | undefined
  private secrets: readonly string[] = []

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', () => {
      this.closed = true
      this.onClosed?.()
    })
  }

  /** Called once when the reader goes away. */
  whenClosed(callback: (() => void) | undefined): void {
    this.onClosed = callback
  }

  /** The secrets to scrub from everything written from now on. */
  scrub(secrets: readonly string[]): void {
    this.secrets = secrets
  }

  write(text: string): void {
    if (!this.closed) this.stream.write(this.secrets.length === 0 ? text : scrubText(text, this.secrets))
  }

  /** Resolves once everything written so far was handed to the OS (pipes may be async). */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      this.stream.write('', () => resolve())
    })
  }
}
