import { describe, expect, it } from 'vitest'
import { runBatchPool } from '../../src/batch/pool.ts'
import type { RowResult } from '../../src/batch/result.ts'
import type { DataRow } from '../../src/batch/rows.ts'

const usage = { prompt: 0, completion: 0, total: 10, estimated: false }

function pages(count: number, size: number, problemAt?: number): Iterator<DataRow[]> {
  const out: DataRow[][] = []
  for (let i = 0; i < count; i += size)
    out.push(
      Array.from({ length: Math.min(size, count - i) }, (_, k) => ({
        index: i + k,
        values: { n: String(i + k) },
        ...(i + k === problemAt ? { problem: 'bad line' } : {}),
      })),
    )
  return out[Symbol.iterator]()
}

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('the batch pool', () => {
  it('runs every row, at most `concurrency` at once, and reports a problem row as an error', async () => {
    let running = 0
    let most = 0
    const seen: RowResult[] = []
    const outcome = await runBatchPool({
      rows: pages(50, 7, 3),
      concurrency: 4,
      async runRow(row) {
        running++
        most = Math.max(most, running)
        await tick()
        running--
        return { row: row.index, status: row.index % 10 === 9 ? 'error' : 'success', outputs: {}, usage }
      },
      onResult: (r) => seen.push(r),
    })
    expect(seen.map((r) => r.row).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(most).toBe(4)
    expect(seen.find((r) => r.row === 3)).toMatchObject({ status: 'error', error: 'bad line' })
    expect(outcome.totals.failed).toBe(6)
    expect(outcome.endedEarly).toBeUndefined()
  })

  it('starts no row once the shared budget is spent and reports the rest skipped with its reason', async () => {
    const seen: RowResult[] = []
    let tokens = 0
    // A stand-in for the rows' shared ledger: spent once 35 tokens were charged.
    const budget = { spent: false, reason: () => `spent: ${tokens} tokens` }
    const outcome = await runBatchPool({
      rows: pages(20, 5),
      concurrency: 2,
      budget,
      runRow: async (row) => {
        await tick()
        tokens += 10
        if (tokens > 35) budget.spent = true
        return { row: row.index, status: budget.spent ? 'stopped' : 'success', outputs: {}, usage }
      },
      onResult: (r) => seen.push(r),
    })
    const ran = seen.filter((r) => r.status !== 'skipped').length
    expect(ran).toBeGreaterThanOrEqual(4)
    expect(ran).toBeLessThanOrEqual(5)
    expect(seen).toHaveLength(20)
    expect(
      seen.filter((r) => r.status === 'skipped').every((r) => /^spent: \d+ tokens$/.test(r.error ?? '')),
    ).toBe(true)
    expect(outcome).toMatchObject({ endedEarly: expect.stringMatching(/^spent/), budgetSpent: true })
  })

  it('Stop: no new row starts; a row that throws is an error row', async () => {
    const stop = new AbortController()
    const seen: RowResult[] = []
    await runBatchPool({
      rows: pages(10, 10),
      concurrency: 1,
      signal: stop.signal,
      runRow: async (row) => {
        if (row.index === 1) throw new Error('engine failed')
        if (row.index === 2) stop.abort()
        return { row: row.index, status: 'success', outputs: {}, usage }
      },
      onResult: (r) => seen.push(r),
    })
    expect(seen[1]).toMatchObject({ status: 'error', error: 'engine failed' })
    expect(seen.slice(3).every((r) => r.status === 'skipped')).toBe(true)
    expect(seen).toHaveLength(10)
  })
})
