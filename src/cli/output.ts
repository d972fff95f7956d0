/**
 * A write target that survives its reader going away (`wardflow run f.json | head`): the first
 * error (EPIPE) marks it closed and tells the run to stop; later writes are dropped instead of
 * crashing the process with an unhandled 'error' event.
 */
export class Output {
  private closed = false
  private onClosed: (() => void) | undefined

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

  write(text: string): void {
    if (!this.closed) this.stream.write(text)
  }

  /** Resolves once everything written so far was handed to the OS (pipes may be async). */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      this.stream.write('', () => resolve())
    })
  }
}
