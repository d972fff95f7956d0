/**
 * What a streamed console segment grew by, without reading its text.
 *
 * A streamed segment's `text` is built by appending (`last.text + added`), which V8 keeps as a
 * rope: cheap to build, but the first read of its characters (a slice, a comparison) copies the
 * whole text into one flat string. A view that took the new text with `text.slice(shownLength)`
 * so copied the whole reply once per frame: at 130,000 characters, a large-object allocation each
 * time, some 2-4 MB a second, and a major garbage collection (4-18 ms on the main thread) every
 * few seconds of a stream. Instead, each version of a segment records the pieces it was appended
 * from, in an append-only list shared with its earlier versions; a view asks what a version added
 * since the one it drew and joins just those pieces.
 *
 * The pieces are kept beside the lines (a WeakMap), not in them: a ConsoleLine stays plain data
 * (saved, compared and replayed as before), and the record goes with the line.
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

/** The next version of streamed segment `last`, with `added` appended. */
export function grownLine(last: ConsoleLine, added: string): ConsoleLine {
  const line: ConsoleLine = { ...last, text: last.text + added }
  const before = piecesOf.get(last)
  if (before && before.list.length === before.count) {
    // `last` is the newest version: extend the shared list (older versions read only their count).
    before.list.push(added)
    piecesOf.set(line, { list: before.list, count: before.count + 1 })
  } else {
    // A version grown twice, or a segment from elsewhere (a trimmed or replayed line): start anew.
    piecesOf.set(line, { list: [last.text, added], count: 2 })
  }
  return line
}

/**
 * The text `line` added to `before` when `line` is a later version of the same streamed segment,
 * or undefined when that is not known (the caller then compares the texts).
 */
export function textAddedSince(before: ConsoleLine, line: ConsoleLine): string | undefined {
  const old = piecesOf.get(before)
  const now = piecesOf.get(line)
  if (!old || !now || old.list !== now.list || old.count > now.count) return undefined
  return now.list.slice(old.count, now.count).join('')
}
