/** Batch run numbers (src/batch/, the browser's batch screen, `wardflow batch`): part of src/defaults.ts. */
import type { NumberRange } from './range.ts'

// --- Batch runs (one run per data row) ---

/** Rows run at once unless the person or `--concurrency` says otherwise. */
export const BATCH_CONCURRENCY = 4
export const BATCH_CONCURRENCY_RANGE: NumberRange = { min: 1, max: 32, step: 1 }
/** Rows the data reader hands over at a time (worker to page): bounds the rows held in memory, rows. */
export const BATCH_ROWS_PER_PAGE = 256
/** Row runs kept in IndexedDB for the latest batch of a flow (to open a row's run); 0..100,000 records. */
export const BATCH_RUN_RECORDS_MAX = 10_000
/** Row records written to IndexedDB together (one transaction); 1..1,000 records. */
export const BATCH_RECORD_WRITE_ROWS = 100
/** The longest wait before row records are written anyway; 50..10,000 ms. */
export const BATCH_RECORD_WRITE_MAX_WAIT_MS = 1_000
/** The progress line and the results table are redrawn at most this often; 16..2,000 ms. */
export const BATCH_PROGRESS_INTERVAL_MS = 250
/** Height of one results row in the virtualised table; 20..80 px. */
export const BATCH_ROW_HEIGHT_PX = 32
/** Rows drawn above and below the visible part of the results table; 0..50 rows. */
export const BATCH_TABLE_OVERSCAN_ROWS = 8
/** Characters of an output shown in a results cell (the export keeps all of it); 20..2,000 chars. */
export const BATCH_CELL_TEXT_MAX_CHARS = 200
