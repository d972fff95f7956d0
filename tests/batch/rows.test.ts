import { describe, expect, it } from 'vitest'
import {
  createRowParser,
  formatOf,
  readRows,
  scanRows,
  uniqueNames,
  type DataRow,
} from '../../src/batch/rows.ts'

/** Parses `text` pushed in pieces of `size` characters. */
function parse(
  format: 'csv' | 'jsonl',
  text: string,
  size = text.length,
): { rows: DataRow[]; columns: readonly string[] } {
  const rows: DataRow[] = []
  const parser = createRowParser(format, (out) => rows.push(...out))
  for (let i = 0; i < text.length; i += Math.max(1, size)) parser.push(text.slice(i, i + Math.max(1, size)))
  parser.end()
  return { rows, columns: parser.columns() }
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

/** A byte stream that hands out `data` in pieces of `size` bytes (cutting characters in two). */
function streamOf(data: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= data.length) {
        controller.close()
        return
      }
      controller.enqueue(data.slice(at, at + size))
      at += size
    },
  })
}

async function collect(source: ReadableStream<Uint8Array>, format: 'csv' | 'jsonl'): Promise<DataRow[]> {
  const out: DataRow[] = []
  for await (const rows of readRows(source, { format })) out.push(...rows)
  return out
}

describe('CSV rows', () => {
  it('reads quoted commas, escaped quotes and newlines inside quotes, in any piece size', () => {
    const text = 'question,context\n"Hello, world","say ""hi"""\n"two\nlines",plain\n'
    for (const size of [1, 2, 3, 7, text.length]) {
      const { rows, columns } = parse('csv', text, size)
      expect(columns).toEqual(['question', 'context'])
      expect(rows.map((r) => ({ ...r.values }))).toEqual([
        { question: 'Hello, world', context: 'say "hi"' },
        { question: 'two\nlines', context: 'plain' },
      ])
      expect(rows.map((r) => r.index)).toEqual([0, 1])
    }
  })

  it('skips blank lines, keeps CRLF out of values and reads a last row without a newline', () => {
    const { rows } = parse('csv', 'a,b\r\n\r\n1,2\r\n   \r\n3,4', 4)
    expect(rows.map((r) => ({ ...r.values }))).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ])
    expect(rows.map((r) => r.index)).toEqual([0, 1])
  })

  it('drops a byte-order mark so the first column keeps its name', () => {
    const { columns, rows } = parse('csv', '\uFEFFname,age\nAda,36\n', 3)
    expect(columns).toEqual(['name', 'age'])
    expect(rows[0]?.values['name']).toBe('Ada')
  })

  it('decodes UTF-8 cut between reads and strips a BOM given as bytes', async () => {
    const text = '\uFEFFname,greeting\n张三,"你好, 世界 🌍"\nZoë,héllo\n'
    // 1-byte pieces cut every multi-byte character in two.
    const rows = await collect(streamOf(bytes(text), 1), 'csv')
    expect(rows.map((r) => ({ ...r.values }))).toEqual([
      { name: '张三', greeting: '你好, 世界 🌍' },
      { name: 'Zoë', greeting: 'héllo' },
    ])
  })

  it('fills missing fields with empty text and reports a row with more fields than the header', () => {
    const { rows } = parse('csv', 'a,b,c\n1\n1,2,3,4\n')
    expect({ ...rows[0]?.values }).toEqual({ a: '1', b: '', c: '' })
    expect(rows[0]?.problem).toBeUndefined()
    expect(rows[1]?.problem).toMatch(/4 fields but the header names 3/)
  })

  it('reads other delimiters (semicolons, tabs)', () => {
    expect({ ...parse('csv', 'a;b\n1;2\n').rows[0]?.values }).toEqual({ a: '1', b: '2' })
    expect({ ...parse('csv', 'a\tb\n1\t2\n').rows[0]?.values }).toEqual({ a: '1', b: '2' })
  })

  it('names repeated and empty headers apart; a header named __proto__ is only a key', () => {
    expect(uniqueNames(['a', 'a', ' ', 'b ', 'a'])).toEqual(['a', 'a_2', 'column_3', 'b', 'a_3'])
    const { rows } = parse('csv', '__proto__,constructor\nx,y\n')
    expect(Object.keys(rows[0]?.values ?? {})).toEqual(['__proto__', 'constructor'])
    expect(rows[0]?.values['__proto__']).toBe('x')
  })
})

describe('JSONL rows', () => {
  it('reads objects line by line in any piece size, skipping blank lines, CRLF too', () => {
    const text = '{"q":"a, b","n":1}\r\n\n  \n{"q":"line\\nbreak","extra":{"x":[1]}}\n{"q":"last"}'
    for (const size of [1, 5, text.length]) {
      const { rows, columns } = parse('jsonl', text, size)
      expect(rows.map((r) => r.index)).toEqual([0, 1, 2])
      expect(rows[1]?.values['q']).toBe('line\nbreak')
      expect(rows[1]?.values['extra']).toEqual({ x: [1] })
      expect(columns).toEqual(['q', 'n', 'extra'])
    }
  })

  it('keeps a bad line as a row with its problem, so later rows keep their index', () => {
    const { rows } = parse('jsonl', '{"a":1}\nnot json\n[1,2]\n{"a":2}\n')
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3])
    expect(rows[1]?.problem).toMatch(/Line 2 is not valid JSON/)
    expect(rows[2]?.problem).toMatch(/Line 3 is not a JSON object/)
    expect(rows[3]?.values['a']).toBe(2)
  })

  it('decodes UTF-8 and a BOM from bytes', async () => {
    const rows = await collect(streamOf(bytes('\uFEFF{"名前":"ümlaut 😀"}\n'), 1), 'jsonl')
    expect({ ...rows[0]?.values }).toEqual({ 名前: 'ümlaut 😀' })
  })

  it('keeps a __proto__ key as data', () => {
    const { rows } = parse('jsonl', '{"__proto__":"x","a":1}\n')
    expect(Object.keys(rows[0]?.values ?? {})).toEqual(['__proto__', 'a'])
  })
})

describe('format', () => {
  it('comes from the name, else the first text', () => {
    expect(formatOf('rows.JSONL')).toBe('jsonl')
    expect(formatOf('rows.ndjson')).toBe('jsonl')
    expect(formatOf('rows.csv', '{"a":1}')).toBe('csv')
    expect(formatOf('rows.txt', '\uFEFF  {"a":1}')).toBe('jsonl')
    expect(formatOf('data', 'a,b')).toBe('csv')
  })
})

describe('streaming a 50 MB file', () => {
  it(
    'reads every row without holding the file: memory stays far below its size',
    { timeout: 60_000 },
    async () => {
      const rowsWanted = 400_000
      // Made as it is read: the test itself never holds the 50 MB either.
      const line = (i: number) => `${i},"question ${i}, with a comma","${'x'.repeat(100)}"\n`
      const encoder = new TextEncoder()
      let i = -1
      let size = 0
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i >= rowsWanted) {
            controller.close()
            return
          }
          let text = ''
          if (i < 0) {
            text = 'id,question,context\n'
            i = 0
          }
          for (let n = 0; n < 2_000 && i < rowsWanted; n++) text += line(i++)
          const chunk = encoder.encode(text)
          size += chunk.length
          controller.enqueue(chunk)
        },
      })
      global.gc?.()
      const before = process.memoryUsage().heapUsed
      let peak = before
      let count = 0
      let lastId = -1
      let ordered = true
      for await (const rows of readRows(source, { format: 'csv' })) {
        for (const row of rows) {
          const id = Number(row.values['id'])
          if (id !== lastId + 1) ordered = false
          lastId = id
          count++
        }
        if (count % 40_000 < rows.length) peak = Math.max(peak, process.memoryUsage().heapUsed)
      }
      expect(size).toBeGreaterThan(50 * 1024 * 1024)
      expect(count).toBe(rowsWanted)
      expect(ordered).toBe(true)
      // Held: one piece and its rows. A file kept whole would add its 50 MB (100 MB as JS strings).
      expect(peak - before).toBeLessThan(40 * 1024 * 1024)
    },
  )

  it('scans a file for its columns and count', async () => {
    const text = 'a,b\n1,2\n3,4\n5\n'
    expect(await scanRows(streamOf(bytes(text), 3), 'csv')).toEqual({
      columns: ['a', 'b'],
      count: 3,
      problems: 0,
    })
  })
})
