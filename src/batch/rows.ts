/**
 * Data rows of a batch, read from CSV or JSONL as a stream: pure, shared by the browser (its data
 * worker) and the CLI (`wardflow batch`, `wardflow enqueue --data`). Nothing here holds the file:
 * text goes in by pieces (`RowParser.push`), rows come out as soon as they are whole, and
 * `readRows` pulls bytes only when its reader asks for the next rows.
 *
 * CSV is parsed by papaparse (quotes, quoted commas and newlines, `""`, delimiter detection). It is
 * fed through its stream input, so it keeps a row cut between two pieces and finishes it with the
 * next. Bytes are decoded here with a streaming TextDecoder, not by papaparse: a UTF-8 character
 * cut between two reads stays whole, and a byte-order mark is dropped.
 *
 * Rows count from 0, header and blank lines not counted. A row that cannot be read (JSONL that is
 * not an object, a CSV line with more fields than the header) still has its index and says why in
 * `problem`: a batch reports it as a failed row instead of shifting every row after it.
 */
import Papa from 'papaparse'
import { keyedRecord } from '../engine/index.ts'

export type DataFormat = 'csv' | 'jsonl'

export interface DataRow {
  /** From 0, in file order (header and blank lines not counted). */
  index: number
  /** Column name -> value: strings from CSV, JSON values from JSONL. No prototype (keyed.ts). */
  values: Record<string, unknown>
  /** Why the row could not be read as it is (plain English); absent for a good row. */
  problem?: string
}

export interface RowParser {
  /** Parses another piece of text; rows that are complete go to `onRows` before it returns. */
  push(text: string): void
  /** The text is over: the last row (without a final newline) goes out. */
  end(): void
  /** Column names: the CSV header, or every key seen so far in JSONL rows, in first-seen order. */
  columns(): readonly string[]
  /** Rows so far. */
  count(): number
}

/** The format a file's name says (`.jsonl`, `.ndjson`, `.csv`, `.tsv`, `.txt`), else what its first text looks like. */
export function formatOf(name: string, firstText = ''): DataFormat {
  const lower = name.toLowerCase()
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl'
  if (lower.endsWith('.csv') || lower.endsWith('.tsv')) return 'csv'
  return firstText
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'jsonl'
    : 'csv'
}

export function createRowParser(format: DataFormat, onRows: (rows: DataRow[]) => void): RowParser {
  return format === 'jsonl' ? new JsonlParser(onRows) : new CsvParser(onRows)
}

/** Drops a byte-order mark at the very start of the text (text decoded elsewhere may keep one). */
class BomStrip {
  private first = true
  apply(text: string): string {
    if (!this.first || text === '') return text
    this.first = false
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
}

class JsonlParser implements RowParser {
  private partial = ''
  private line = 0
  private rows = 0
  private readonly seen = new Set<string>()
  private readonly names: string[] = []
  private readonly bom = new BomStrip()

  constructor(private readonly onRows: (rows: DataRow[]) => void) {}

  push(text: string): void {
    const all = this.partial + this.bom.apply(text)
    const lines = all.split('\n')
    this.partial = lines.pop() ?? ''
    this.emit(lines)
  }

  end(): void {
    const last = this.partial
    this.partial = ''
    this.emit([last])
  }

  columns(): readonly string[] {
    return this.names
  }

  count(): number {
    return this.rows
  }

  private emit(lines: string[]): void {
    const out: DataRow[] = []
    for (const raw of lines) {
      this.line++
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      if (text.trim() === '') continue
      out.push(this.row(text))
    }
    if (out.length > 0) this.onRows(out)
  }

  private row(text: string): DataRow {
    const index = this.rows++
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      return { index, values: keyedRecord(), problem: `Line ${this.line} is not valid JSON: ${why}` }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { index, values: keyedRecord(), problem: `Line ${this.line} is not a JSON object.` }
    // JSON.parse makes `__proto__` an own key; copied into a record without a prototype it stays one.
    const values = keyedRecord(parsed as Record<string, unknown>)
    for (const key of Object.keys(values)) {
      if (this.seen.has(key)) continue
      this.seen.add(key)
      this.names.push(key)
    }
    return { index, values }
  }
}

/**
 * The stream input papaparse reads (it takes any object with `readable`, `read` and `on`, as a
 * Node stream has): `data` hands it a piece, which it parses at once, keeping an unfinished row.
 */
class TextFeed {
  readonly readable = true
  private readonly listeners = new Map<string, Array<(value?: unknown) => void>>()

  read(): null {
    return null
  }

  on(event: string, listener: (value?: unknown) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }

  removeListener(event: string, listener: (value?: unknown) => void): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    )
    return this
  }

  pause(): void {}
  resume(): void {}

  emit(event: string, value?: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) listener(value)
  }
}

/** Text papaparse sees before it starts: enough to tell the line break and the delimiter. */
const CSV_HEAD_MIN_CHARS = 4_096

/** The line break of a CSV from its first text: the first `\n` (after `\r` or not), else a lone `\r`. */
function lineBreakOf(head: string): '\r\n' | '\n' | '\r' | undefined {
  const lf = head.indexOf('\n')
  if (lf > 0 && head[lf - 1] === '\r') return '\r\n'
  if (lf >= 0) return '\n'
  return head.includes('\r') ? '\r' : undefined
}

class CsvParser implements RowParser {
  private readonly feed = new TextFeed()
  private header: string[] | undefined
  private rows = 0
  private batch: DataRow[] = []
  private failure: string | undefined
  private readonly bom = new BomStrip()
  /** The text before papaparse starts (it guesses the line break from its first piece only). */
  private head: string | undefined = ''

  constructor(private readonly onRows: (rows: DataRow[]) => void) {}

  private start(head: string): void {
    const newline = lineBreakOf(head)
    Papa.parse<string[]>(this.feed as unknown as NodeJS.ReadableStream, {
      header: false,
      dynamicTyping: false,
      skipEmptyLines: 'greedy',
      ...(newline === undefined ? {} : { newline }),
      step: (results) => this.step(results.data),
      error: (error: Error) => {
        this.failure = error.message
      },
    })
    this.head = undefined
    if (head !== '') this.feed.emit('data', head)
  }

  push(text: string): void {
    const piece = this.bom.apply(text)
    if (piece === '') return
    if (this.head !== undefined) {
      this.head += piece
      if (this.head.length < CSV_HEAD_MIN_CHARS) return
      this.start(this.head)
    } else this.feed.emit('data', piece)
    this.flush()
  }

  end(): void {
    if (this.head !== undefined) this.start(this.head)
    this.feed.emit('end')
    this.flush()
    if (this.failure !== undefined) throw new Error(`The CSV could not be read: ${this.failure}`)
  }

  columns(): readonly string[] {
    return this.header ?? []
  }

  count(): number {
    return this.rows
  }

  private flush(): void {
    if (this.batch.length === 0) return
    const out = this.batch
    this.batch = []
    this.onRows(out)
  }

  private step(fields: string[]): void {
    if (this.header === undefined) {
      this.header = uniqueNames(fields)
      return
    }
    const header = this.header
    const values = keyedRecord<unknown>()
    header.forEach((name, i) => {
      values[name] = fields[i] ?? ''
    })
    const index = this.rows++
    const extra = fields.length - header.length
    this.batch.push(
      extra > 0
        ? {
            index,
            values,
            problem: `Row ${index} has ${fields.length} fields but the header names ${header.length}.`,
          }
        : { index, values },
    )
  }
}

/** Header names, trimmed, each once: a repeated name gets `_2`, `_3`; an empty one is `column_N`. */
export function uniqueNames(fields: readonly string[]): string[] {
  const used = new Set<string>()
  return fields.map((raw, i) => {
    const base = raw.trim() === '' ? `column_${i + 1}` : raw.trim()
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`
    used.add(name)
    return name
  })
}

export interface ReadRowsOptions {
  format: DataFormat
}

/**
 * Rows of a byte stream (a File's `stream()`, `fs.openAsBlob(path).stream()`, a fetch body),
 * one array per piece read. Nothing is read ahead of the consumer: a paused `for await` holds one
 * piece of the file at most.
 */
export async function* readRows(
  source: ReadableStream<Uint8Array>,
  options: ReadRowsOptions,
): AsyncGenerator<DataRow[], { columns: readonly string[]; count: number }> {
  let ready: DataRow[] = []
  const parser = createRowParser(options.format, (rows) => {
    ready = ready.length === 0 ? rows : ready.concat(rows)
  })
  // `fatal: false`: a stray invalid byte reads as U+FFFD instead of failing the whole file.
  const decoder = new TextDecoder('utf-8')
  const reader = source.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      parser.push(decoder.decode(value, { stream: true }))
      if (ready.length > 0) {
        const out = ready
        ready = []
        yield out
      }
    }
    parser.push(decoder.decode())
    parser.end()
    if (ready.length > 0) {
      const out = ready
      ready = []
      yield out
    }
  } finally {
    reader.releaseLock()
  }
  return { columns: parser.columns(), count: parser.count() }
}

/** What a whole data file holds, read as a stream (nothing kept but the count): for a progress total. */
export async function scanRows(
  source: ReadableStream<Uint8Array>,
  format: DataFormat,
): Promise<{ columns: readonly string[]; count: number; problems: number }> {
  const rows = readRows(source, { format })
  let problems = 0
  for (;;) {
    const next = await rows.next()
    if (next.done) return { ...next.value, problems }
    for (const row of next.value) if (row.problem !== undefined) problems++
  }
}
