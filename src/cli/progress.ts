/**
 * The progress bar of `wardflow batch` on a terminal (stderr only, and only on a TTY): rows done,
 * failed, the rate and the time left, redrawn in place at most every CLI_BATCH_PROGRESS_REDRAW_MS.
 */
import { CLI_BATCH_PROGRESS_BAR_CHARS, CLI_BATCH_PROGRESS_REDRAW_MS } from '../defaults.ts'

export class Progress {
  private readonly started = Date.now()
  private drawnAt = 0
  private done = 0
  private failed = 0

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void,
  ) {
    this.draw()
  }

  update(done: number, failed: number): void {
    this.done = done
    this.failed = failed
    if (Date.now() - this.drawnAt >= CLI_BATCH_PROGRESS_REDRAW_MS || done === this.total) this.draw()
  }

  end(): void {
    this.draw()
    this.write('\n')
  }

  private draw(): void {
    this.drawnAt = Date.now()
    this.write(`\r\x1b[2K${progressLine(this.done, this.failed, this.total, this.drawnAt - this.started)}`)
  }
}

/** `[#####-----] 12/100 rows, 2 failed, 3.1 s left` (pure, for tests). */
export function progressLine(done: number, failed: number, total: number, elapsedMs: number): string {
  const share = total === 0 ? 1 : Math.min(1, done / total)
  const filled = Math.round(share * CLI_BATCH_PROGRESS_BAR_CHARS)
  const bar = `${'#'.repeat(filled)}${'-'.repeat(CLI_BATCH_PROGRESS_BAR_CHARS - filled)}`
  const left = done === 0 ? '' : `, ${(((elapsedMs / done) * (total - done)) / 1000).toFixed(1)} s left`
  return `[${bar}] ${done}/${total} rows${failed > 0 ? `, ${failed} failed` : ''}${left}`
}
