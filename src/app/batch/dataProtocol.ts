/** Messages between the page and the batch data worker (data.worker.ts). */
import type { DataFormat, DataRow } from '../../batch/rows.ts'

export type DataRequest =
  | { type: 'scan'; id: number; file: Blob; format: DataFormat }
  /** Starts reading `file` from its start; `only`: just these rows (a re-run of failed rows). */
  | { type: 'open'; id: number; file: Blob; format: DataFormat; only?: number[] }
  /** The next page of rows of reader `id` (read only now: nothing is read ahead). */
  | { type: 'next'; id: number }
  | { type: 'close'; id: number }

export type DataReply =
  | { type: 'scanned'; id: number; columns: string[]; count: number; problems: number }
  | { type: 'rows'; id: number; rows: DataRow[] }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string }
