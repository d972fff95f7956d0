import { describe, expect, it } from 'vitest'
import { Dexie } from 'dexie'
import { FlowError } from '../../src/engine/index.ts'
import { guard, storageErrorCode, toStorageError } from '../../src/storage/errors.ts'
import { WardflowDb } from '../../src/storage/db.ts'
import { listFlows } from '../../src/storage/repositories/flows.ts'
import { quotaError } from './support.ts'

describe('storage error mapping', () => {
  it('recognises a quota error directly or wrapped by Dexie', () => {
    expect(storageErrorCode(quotaError())).toBe('STORAGE_QUOTA')
    expect(storageErrorCode(new Dexie.AbortError('aborted', quotaError()))).toBe('STORAGE_QUOTA')
    expect(storageErrorCode({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(
      'STORAGE_QUOTA',
    )
  })

  it('treats version, blocked and open failures as STORAGE_BLOCKED', () => {
    for (const name of [
      'VersionError',
      'BlockedError',
      'OpenFailedError',
      'DatabaseClosedError',
      'MissingAPIError',
    ]) {
      expect(storageErrorCode({ name })).toBe('STORAGE_BLOCKED')
    }
    expect(storageErrorCode(new Dexie.OpenFailedError('nope', new DOMException('x', 'VersionError')))).toBe(
      'STORAGE_BLOCKED',
    )
  })

  it('maps anything else to STORAGE_FAILED with what was being done', () => {
    const error = toStorageError(new Error('disk on fire'), 'saving a flow')
    expect(error.code).toBe('STORAGE_FAILED')
    expect(error.message).toContain('saving a flow')
    expect(error.message).toContain('disk on fire')
    expect(error.details).toEqual({ action: 'saving a flow' })
  })

  it('lets deliberate FlowErrors through unchanged', async () => {
    const original = new FlowError('WRONG_PASSPHRASE', 'nope')
    await expect(guard('x', () => Promise.reject(original))).rejects.toBe(original)
  })

  it('reports a database that cannot open as STORAGE_BLOCKED with advice', async () => {
    const db = new WardflowDb(`t-${crypto.randomUUID()}`)
    db.close()
    const error = await listFlows(db).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'STORAGE_BLOCKED' })
    expect((error as Error).message).toMatch(/other Wardflow tabs|private mode/)
  })
})
