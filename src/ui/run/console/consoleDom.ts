/**
 * Keeps a console's DOM in step with its lines without React: the console is an append-only
 * log, so each store update only appends the new text, and a console that went over its cap
 * only trims as many characters from the front as the store dropped. Text is laid out in small
 * blocks (a new one after a newline past CONSOLE_BLOCK_SOFT_CHARS, or at
 * CONSOLE_BLOCK_HARD_CHARS), because the browser lays out a block again whenever text is added
 * to it: one block of 130,000 characters costs hundreds of milliseconds per frame, the last
 * small block almost nothing. Blocks a few behind the console's newest one are marked settled
 * (`data-settled`): the browser then lays out and paints them only while they are in view
 * (content-visibility, run.css). Everything is a text node: nothing a model, a tool or a server
 * says is ever parsed as HTML.
 */
import {
  CONSOLE_APPEND_CHECK_CHARS,
  CONSOLE_BLOCK_HARD_CHARS,
  CONSOLE_BLOCK_SOFT_CHARS,
  CONSOLE_UNSETTLED_CLOSED_BLOCKS,
} from '../../../defaults.ts'
import { textAddedSince, type ConsoleLine } from '../../../store/runStore.ts'

export interface ConsoleDomOptions {
  /** Give guard lines `data-testid="guard-alert"` (the node body's console; not its inspector copy). */
  testIds: boolean
  /** Label of reasoning segments (shown through CSS, so it is not part of the text). */
  reasoningLabel: string
  /**
   * The mark of Wardflow's own lines (guard alerts, errors, notes), shown through CSS like the
   * reasoning label: text that code or a model prints can never carry it.
   */
  systemLabel?: string
}

/**
 * Lines Wardflow writes itself. Their kind comes from the event that made them, never from
 * their text, so code that prints the exact words of a guard alert gets a plain log line.
 */
const SYSTEM_KINDS: ReadonlySet<ConsoleLine['kind']> = new Set(['guard', 'error', 'info'])

interface Chunk {
  element: HTMLElement
  text: Text
  length: number
  /** No more text goes into this block (it ended at a newline or is full). */
  closed: boolean
}

interface RenderedLine {
  /** The store line this DOM line last matched (its text is what the DOM shows, before trimming). */
  line: ConsoleLine
  element: HTMLElement
  chunks: Chunk[]
  /** Characters shown now (after any front trimming). */
  length: number
}

/** Where the next block should end: after a newline past the soft limit, else at the hard limit. */
function takeLength(chunkLength: number, text: string): { take: number; close: boolean } {
  const room = CONSOLE_BLOCK_HARD_CHARS - chunkLength
  if (chunkLength + text.length <= CONSOLE_BLOCK_SOFT_CHARS) return { take: text.length, close: false }
  const newline = text.indexOf('\n', Math.max(0, CONSOLE_BLOCK_SOFT_CHARS - chunkLength))
  if (newline >= 0 && newline < room) return { take: newline + 1, close: true }
  if (text.length < room) return { take: text.length, close: false }
  // Full: end at the last space of what fits, so a word is not split across blocks.
  const space = text.lastIndexOf(' ', room - 1)
  return { take: space > room / 2 ? space + 1 : room, close: true }
}

/**
 * True when `text` looks like what `shown` displays with text added at the end: long enough, and
 * equal at both ends of the shown part. Checking only the ends keeps a frame O(new text) while a
 * long reply streams; a new run empties the console (or resets the dropped count) and rebuilds
 * anyway, and another run's text differing only in its middle at exactly these lengths is not a
 * case the store produces.
 */
function grewFrom(shown: RenderedLine, text: string): boolean {
  const length = shown.length
  if (text.length < length) return false
  const old = shown.line.text
  const start = old.length - length
  const check = Math.min(CONSOLE_APPEND_CHECK_CHARS, length)
  return (
    text.startsWith(old.slice(start, start + check)) &&
    text.startsWith(old.slice(old.length - check), length - check)
  )
}

/**
 * The newest blocks of a console, over all its lines, in the order they were made: a block is
 * settled (`data-settled`) once more than CONSOLE_UNSETTLED_CLOSED_BLOCKS newer blocks follow it
 * (the newest is open, the others closed). In a console following its text, that block is then
 * out of view, so the switch costs the layout of a block the browser skips (its size is the one it
 * last had: `contain-intrinsic-size: auto`), not a layout of its text. Settling every block when
 * the node ended instead laid the whole reply out again in one frame: 26 ms of CPU for 20,000
 * tokens. Text drawn at once (a saved run) settles the same way as its blocks are made.
 */
class NewestBlocks {
  private blocks: HTMLElement[] = []

  add(block: HTMLElement): void {
    this.blocks.push(block)
    if (this.blocks.length > CONSOLE_UNSETTLED_CLOSED_BLOCKS + 1) {
      this.blocks.shift()?.setAttribute('data-settled', '')
    }
  }

  clear(): void {
    this.blocks = []
  }
}

/** Splits `text` into the blocks a console would lay it out in (for long outputs shown at once). */
export function splitIntoBlocks(text: string): string[] {
  const out: string[] = []
  let rest = text
  while (rest.length > 0) {
    const { take } = takeLength(0, rest)
    out.push(rest.slice(0, take))
    rest = rest.slice(take)
  }
  return out
}

export class ConsoleDom {
  private rendered: RenderedLine[] = []
  private dropped = 0
  private readonly newest = new NewestBlocks()

  constructor(
    private readonly root: HTMLElement,
    private readonly options: ConsoleDomOptions,
  ) {}

  /**
   * Shows `lines`. `dropped` is how many characters the store has cut from the front since the
   * console was last empty (NodeRunState.consoleDropped).
   */
  sync(lines: readonly ConsoleLine[], dropped = 0): void {
    if (!this.trimFront(dropped - this.dropped)) return this.rebuild(lines, dropped)
    this.dropped = dropped
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] as ConsoleLine
      const shown = this.rendered[i]
      if (!shown) {
        this.add(line)
        continue
      }
      if (shown.line === line) continue
      // A streamed segment says what it added since the version shown, without a read of its
      // text (which would copy the whole reply, see consoleText.ts).
      const added = textAddedSince(shown.line, line)
      if (added !== undefined) {
        this.append(shown, added)
        shown.line = line
        continue
      }
      // The line may only have grown: anything else (a new run, another saved run) rebuilds.
      if (shown.line.kind !== line.kind || line.kind === 'guard' || !grewFrom(shown, line.text)) {
        return this.rebuild(lines, dropped)
      }
      this.append(shown, line.text.slice(shown.length))
      shown.line = line
    }
    if (this.rendered.length > lines.length) this.rebuild(lines, dropped)
  }

  clear(): void {
    for (const r of this.rendered) r.element.remove()
    this.rendered = []
    this.dropped = 0
    this.newest.clear()
  }

  private rebuild(lines: readonly ConsoleLine[], dropped: number): void {
    this.clear()
    this.dropped = dropped
    for (const line of lines) this.add(line)
  }

  /** Removes `count` characters from the front; false when that is not a plain trim. */
  private trimFront(count: number): boolean {
    if (count < 0) return false
    let left = count
    while (left > 0) {
      const first = this.rendered[0]
      if (!first) return false
      if (first.length <= left) {
        left -= first.length
        first.element.remove()
        this.rendered.shift()
        continue
      }
      while (left > 0) {
        const chunk = first.chunks[0] as Chunk
        if (chunk.length <= left) {
          left -= chunk.length
          first.length -= chunk.length
          chunk.element.remove()
          first.chunks.shift()
        } else {
          chunk.text.deleteData(0, left)
          chunk.length -= left
          first.length -= left
          left = 0
        }
      }
    }
    return true
  }

  private add(line: ConsoleLine): void {
    const element = document.createElement('div')
    element.className = `wf-run-console__line wf-run-console__line--${line.kind}`
    if (line.kind === 'reasoning') element.dataset['label'] = this.options.reasoningLabel
    if (SYSTEM_KINDS.has(line.kind)) {
      element.dataset['source'] = 'system'
      if (this.options.systemLabel) element.dataset['systemLabel'] = this.options.systemLabel
    }
    if (line.kind === 'guard') {
      element.className += ` wf-run-console__line--${line.level === 'trip' ? 'trip' : 'hint'}`
      if (this.options.testIds) element.dataset['testid'] = 'guard-alert'
      if (line.layer) element.dataset['layer'] = line.layer
      if (line.level) element.dataset['level'] = line.level
      // One alert is one text node: its text content is exactly the spec's console line.
      const text = document.createTextNode(line.text)
      element.appendChild(text)
      this.root.appendChild(element)
      const chunk: Chunk = { element, text, length: line.text.length, closed: true }
      this.rendered.push({ line, element, chunks: [chunk], length: line.text.length })
      return
    }
    const rendered: RenderedLine = { line, element, chunks: [], length: 0 }
    this.append(rendered, line.text)
    this.root.appendChild(element)
    this.rendered.push(rendered)
  }

  private append(line: RenderedLine, text: string): void {
    let rest = text
    while (rest.length > 0) {
      let chunk = line.chunks[line.chunks.length - 1]
      if (!chunk || chunk.closed) {
        const element = document.createElement('div')
        element.className = 'wf-run-console__block'
        const node = document.createTextNode('')
        element.appendChild(node)
        line.element.appendChild(element)
        chunk = { element, text: node, length: 0, closed: false }
        line.chunks.push(chunk)
        this.newest.add(element)
      }
      const { take, close } = takeLength(chunk.length, rest)
      chunk.text.appendData(rest.slice(0, take))
      chunk.length += take
      chunk.closed = close
      line.length += take
      rest = rest.slice(take)
    }
  }
}
