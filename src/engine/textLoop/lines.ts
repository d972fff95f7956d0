/**
 * Which streamed characters the degenerate-text detector counts (docs/guard.md, "Degenerate
 * text"): prose only. Lists, tables, headings, block quotes, indented lines, JSON/HTML lines
 * and fenced code blocks repeat by nature, so they are skipped. Each line is classified from its
 * first few characters as they stream in (never the whole line: a degenerate reply may have no
 * newline at all), so the filter holds at most a dozen characters back.
 */

/** Receives the prose the filter lets through, one UTF-16 code unit at a time. */
export interface ProseSink {
  /** A prose character (whitespace included; the sink collapses runs). */
  prose(code: number): void
  /** Structured text came between two stretches of prose: no chunk may span it. */
  gap(): void
}

const LF = 10
const CR = 13
const TAB = 9
const SPACE = 32
const BACKTICK = 96
const TILDE = 126
const DOT = 46
const PAREN = 41
const ZERO = 48
const NINE = 57
/** Digits a numbered-list marker may have (CommonMark allows 9). */
const MAX_MARKER_DIGITS = 9
/** Columns of indentation that make a line a continuation or indented code, not prose. */
const INDENT_COLUMNS = 2
const TAB_COLUMNS = 4
/** A fence is at least three backticks or tildes. */
const MIN_FENCE = 3

/**
 * First characters that make a line structured: list bullets and rules (- * + _ =), headings,
 * quotes, tables, JSON and markup lines.
 */
const STRUCTURED = new Set(Array.from('-*+_=#>|{}[]<', (ch) => ch.charCodeAt(0)))

/** Where the current line stands (plain constants: Node's type stripping has no enums). */
const Mode = { Start: 0, Prose: 1, Skip: 2, Code: 3 } as const
type Mode = (typeof Mode)[keyof typeof Mode]

/** What an undecided line start is waiting for. */
const Pending = { None: 0, Fence: 1, Digits: 2, Marker: 3 } as const
type Pending = (typeof Pending)[keyof typeof Pending]

const isDigit = (c: number): boolean => c >= ZERO && c <= NINE
const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === CR

/** A streaming Markdown line filter: feed characters, it forwards the prose to its sink. */
export class ProseFilter {
  private mode: Mode = Mode.Start
  private indent = 0
  private pending: Pending = Pending.None
  /** Held-back characters of an undecided line start (a possible fence or list marker). */
  private held: number[] = []
  private fenceCandidate = 0
  private inCode = false
  private fenceChar = 0
  private fenceLen = 0
  /** Inside a code block: the length of a possible closing fence on this line, -1 if it is none. */
  private closeRun = 0
  private closeDone = false

  constructor(private readonly sink: ProseSink) {}

  push(code: number): void {
    if (code === LF) return this.endLine()
    if (this.mode === Mode.Prose) this.sink.prose(code)
    else if (this.mode === Mode.Code) this.codeChar(code)
    else if (this.mode === Mode.Start) this.startChar(code)
  }

  private endLine(): void {
    if (this.mode === Mode.Start && this.pending !== Pending.None) this.decideHeld(true)
    if (this.mode === Mode.Prose) this.sink.prose(SPACE)
    else if (this.mode === Mode.Code && this.closeRun >= this.fenceLen) this.inCode = false
    this.mode = Mode.Start
    this.indent = 0
    this.pending = Pending.None
    this.held.length = 0
  }

  private skip(): void {
    this.mode = Mode.Skip
    this.sink.gap()
  }

  private prose(): void {
    this.mode = Mode.Prose
    for (const c of this.held) this.sink.prose(c)
    this.held.length = 0
  }

  private startChar(c: number): void {
    if (this.inCode) {
      this.mode = Mode.Code
      this.closeRun = 0
      this.closeDone = false
      this.codeChar(c)
      return
    }
    switch (this.pending) {
      case Pending.None:
        if (isBlank(c)) {
          this.indent += c === TAB ? TAB_COLUMNS : 1
          return
        }
        if (c === BACKTICK || c === TILDE) {
          this.pending = Pending.Fence
          this.fenceCandidate = c
          this.held.push(c)
          return
        }
        if (this.indent >= INDENT_COLUMNS || STRUCTURED.has(c)) return this.skip()
        if (isDigit(c)) {
          this.pending = Pending.Digits
          this.held.push(c)
          return
        }
        this.mode = Mode.Prose
        this.sink.prose(c)
        return
      case Pending.Fence:
        if (c === this.fenceCandidate) {
          this.held.push(c)
          return
        }
        return this.decideHeld(false, c)
      case Pending.Digits:
        if (isDigit(c) && this.held.length < MAX_MARKER_DIGITS) {
          this.held.push(c)
          return
        }
        if (c === DOT || c === PAREN) {
          this.held.push(c)
          this.pending = Pending.Marker
          return
        }
        return this.decideHeld(false, c)
      case Pending.Marker:
        return this.decideHeld(false, c)
    }
  }

  /** Settles a held line start, at the next character `c` or at the end of the line. */
  private decideHeld(lineEnded: boolean, c = 0): void {
    const pending = this.pending
    this.pending = Pending.None
    if (pending === Pending.Fence && this.held.length >= MIN_FENCE) {
      this.inCode = true
      this.fenceChar = this.fenceCandidate
      this.fenceLen = this.held.length
      this.held.length = 0
      return this.skip() // the rest of the opening line is the info string
    }
    const listMarker = pending === Pending.Marker && (lineEnded || isBlank(c))
    if (listMarker || this.indent >= INDENT_COLUMNS) {
      this.held.length = 0
      return this.skip()
    }
    this.prose()
    if (!lineEnded) this.sink.prose(c)
  }

  /** A line inside a code block: only a closing fence matters. */
  private codeChar(c: number): void {
    if (this.closeRun < 0) return
    if (c === this.fenceChar && !this.closeDone) this.closeRun++
    else if (isBlank(c) && (this.closeRun === 0 || this.closeRun >= this.fenceLen))
      this.closeDone ||= this.closeRun > 0
    else this.closeRun = -1
  }
}
