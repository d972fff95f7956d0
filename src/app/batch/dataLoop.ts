/**
 * The batch data worker's loop: scans a data file (columns, row count) and hands its rows out a
 * page at a time, reading the file only as pages are asked for, so a file of any size never sits
 * in memory, in the worker or on the page. Pure of the worker itself: tests drive it directly.
 */
import { BATCH_ROWS_PER_PAGE } from '../../defaults.ts'
import { readRows, scanRows, type DataRow } from '../../batch/rows.ts'
import type { DataReply, DataRequest } from './dataProtocol.ts'

interface Reader {
  rows: AsyncGenerator<DataRow[], unknown>
  only: Set<number> | undefined
  /** Rows read but not handed out yet (one piece of the file can hold more than a page). */
  held: DataRow[]
  done: boolean
}

export function createDataLoop(post: (reply: DataReply) => void, pageRows = BATCH_ROWS_PER_PAGE) {
  const readers = new Map<number, Reader>()
  // One request at a time per reader: `next` awaits the file.
  let queue: Promise<void> = Promise.resolve()

  const fail = (id: number, error: unknown): void =>
    post({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) })

  async function page(id: number): Promise<void> {
    const reader = readers.get(id)
    if (!reader) {
      post({ type: 'done', id })
      return
    }
    while (reader.held.length < pageRows && !reader.done) {
      const next = await reader.rows.next()
      if (next.done) reader.done = true
      else {
        const rows = reader.only ? next.value.filter((r) => reader.only?.has(r.index)) : next.value
        reader.held = reader.held.length === 0 ? rows : reader.held.concat(rows)
      }
    }
    if (reader.held.length === 0) {
      readers.delete(id)
      post({ type: 'done', id })
      return
    }
    const out = reader.held.slice(0, pageRows)
    reader.held = reader.held.slice(pageRows)
    post({ type: 'rows', id, rows: out })
  }

  async function handle(request: DataRequest): Promise<void> {
    try {
      switch (request.type) {
        case 'scan': {
          const found = await scanRows(request.file.stream(), request.format)
          post({
            type: 'scanned',
            id: request.id,
            count: found.count,
            problems: found.problems,
            columns: [...found.columns],
          })
          break
        }
        case 'open':
          readers.set(request.id, {
            rows: readRows(request.file.stream(), { format: request.format }),
            only: request.only ? new Set(request.only) : undefined,
            held: [],
            done: false,
          })
          break
        case 'next':
          await page(request.id)
          break
        case 'close': {
          const reader = readers.get(request.id)
          readers.delete(request.id)
          await reader?.rows.return(undefined)
          break
        }
      }
    } catch (error) {
      readers.delete(request.id)
      fail(request.id, error)
    }
  }

  return (message: unknown): void => {
    const request = message as DataRequest
    queue = queue.then(() => handle(request))
  }
}
