/**
 * What a streamed console segment grew by at its end, without reading its text.
 *
 * A streamed segment's `text` is built by appending (`last.text + added`), which V8 keeps as a
 * rope: cheap to build, but the first read of its characters (a slice, a comparison) copies the
 * whole text into one flat string. A view that took the new text with `text.slice(shownLength)`
 * so copied the whole reply once per frame: at 130,000 characters, a large-object allocation each
 * time, 26 MB over a 20,000-token stream, and with it more major garbage collections (4-18 ms on
 * the main thread each). Instead, each version of a segment records the pieces it was appended
 * from, in an append-only list shared with its earlier versions; a view asks what a version added
 * since the one it drew and joins just those pieces.
 *
 * The pieces are kept beside the lines (a WeakMap), not in them: a ConsoleLine stays plain data
 * (compared, copied and replayed as before), and the record goes when its line goes. The list
 * lives as long as the newest version of its segment (until the next run clears the console).
 * A console over CONSOLE_MAX_CHARS still has the store copy its first segment's text to cut it
 * (runStoreReducer.ts); the views keep their fast path there too (trimmedLine).
 */
import type { ConsoleLine } from './runStoreReducer.ts'

interface Pieces {
  /** Append-only; shared by every version of one segment. */
  readonly list: string[]
  /** How many of `list` make this version's text. */
  readonly count: number
}

const piecesOf = new WeakMap<ConsoleLine, Pieces>()

/** A new streamed segment holding `text`. */
export function streamedLine(line: ConsoleLine): ConsoleLine {
  piecesOf.set(line, { list: [line.text], count: 1 })
  return line
}

/**
 * The next version of streamed segment `last`, with `added` appended. The one side effect beside
 * the new line: `added` is pushed onto the list shared with `last`'s versions, which each read
 * only their own count of it, so the reducer using this stays pure to its callers.
 */
export function grownLine(last: ConsoleLine, added: string): ConsoleLine {
  const line: ConsoleLine = { ...last, text: last.text + added }
  const before = piecesOf.get(last)
  if (before && before.list.length === before.count) {
    // `last` is the newest version: extend the shared list (older versions read only their count).
    before.list.push(added)
    piecesOf.set(line, { list: before.list, count: before.count + 1 })
  } else {
    // A version grown twice, or a segment this module did not build: start a new list.
    piecesOf.set(line, { list: [last.text, added], count: 2 })
  }
  return line
}

/**
 * Segment `line` with its first `count` characters cut (the console's cap). It ends like the
 * version it was cut from, so it keeps that version's pieces: what it added at its end is known,
 * and the view trims the front by the store's own count (NodeRunState.consoleDropped).
 */
export function trimmedLine(line: ConsoleLine, count: number): ConsoleLine {
  const trimmed: ConsoleLine = { ...line, text: line.text.slice(count) }
  const pieces = piecesOf.get(line)
  if (pieces) piecesOf.set(trimmed, pieces)
  return trimmed
}

/**
 * The text `line` added at its end to `before` when `line` is a later version of the same streamed segment,
 * or undefined when that is not known (the caller then compares the texts).
 */
export function textAddedSince(before: ConsoleLine, line: ConsoleLine): string | undefined {
  const old = piecesOf.get(before)
  const now = piecesOf.get(line)
  if (!old || !now || old.list !== now.list || old.count > now.count) return undefined
  return now.list.slice(old.count, now.count).join('')
}
