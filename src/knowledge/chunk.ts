/**
 * Cutting a document into overlapping chunks. Chunks are what a search returns and what a model
 * reads, so each cut falls on a paragraph, sentence or word boundary when one is near the end,
 * and each chunk repeats the tail of the one before, so a sentence cut in two is still found
 * whole in one of them.
 */
import {
  KNOWLEDGE_CHUNK_BOUNDARY_LOOKBACK_RATIO,
  KNOWLEDGE_CHUNK_OVERLAP_CHARS,
  KNOWLEDGE_CHUNK_SIZE_CHARS,
} from '../defaults.ts'

export interface ChunkOptions {
  sizeChars?: number
  overlapChars?: number
}

/** One chunk: its text and where it sits in the document (character offsets, end exclusive). */
export interface TextChunk {
  text: string
  start: number
  end: number
}

/** Boundaries in order of preference: paragraph, line, sentence end, word. */
const BOUNDARIES: readonly RegExp[] = [/\n\s*\n/g, /\n/g, /[.!?。！？]\s*/g, /\s+/g]

/** The best cut in `text` between `min` and `max` (exclusive), or `max` when there is none. */
function cutAt(text: string, min: number, max: number): number {
  const window = text.slice(min, max)
  for (const pattern of BOUNDARIES) {
    let last = -1
    pattern.lastIndex = 0
    for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
      last = match.index + match[0].length
      if (match[0].length === 0) pattern.lastIndex += 1
    }
    if (last > 0) return min + last
  }
  return max
}

/**
 * Splits `text` into chunks of at most `sizeChars`, each after the first starting `overlapChars`
 * before the previous one ended (moved forward to a word start). Blank chunks are dropped.
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const size = Math.max(1, Math.floor(options.sizeChars ?? KNOWLEDGE_CHUNK_SIZE_CHARS))
  // An overlap as long as the chunk would never move forward.
  const overlap = Math.min(
    Math.max(0, Math.floor(options.overlapChars ?? KNOWLEDGE_CHUNK_OVERLAP_CHARS)),
    size - 1,
  )
  const chunks: TextChunk[] = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + size)
    if (end < text.length) {
      const lookback = Math.floor(size * KNOWLEDGE_CHUNK_BOUNDARY_LOOKBACK_RATIO)
      end = cutAt(text, Math.max(start + 1, end - lookback), end)
    }
    const piece = text.slice(start, end)
    const trimmed = piece.trim()
    if (trimmed !== '') {
      const lead = piece.length - piece.trimStart().length
      chunks.push({ text: trimmed, start: start + lead, end: start + lead + trimmed.length })
    }
    if (end >= text.length) break
    let next = Math.max(start + 1, end - overlap)
    // Start the overlap at a word, not inside one.
    while (next < end && next > start + 1 && /\S/.test(text[next - 1] ?? '') && /\S/.test(text[next] ?? ''))
      next += 1
    start = next
  }
  return chunks
}
