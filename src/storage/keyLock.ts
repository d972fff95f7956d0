/**
 * Provider keys at rest: plain, or locked (encrypted with the person's passphrase, same scheme
 * as full settings exports). Unlocking decrypts into memory only; the stored row stays encrypted
 * until the person removes the lock.
 *
 * Web Crypto calls are awaited outside Dexie transactions (a transaction that awaits a
 * non-IndexedDB promise commits early); writes re-check the row they replace.
 */
import { FlowError } from '../engine/index.ts'
import type { WardflowDb } from './db.ts'
import { guard } from './errors.ts'
import {
  checkPassphrase,
  decryptJson,
  decryptWithKey,
  deriveKey,
  encryptWithKey,
  encryptedEnvelopeSchema,
  type DerivedKey,
} from './crypto.ts'
import { SECRETS_ROW_ID, type SecretsRow } from './rows.ts'
import { secretsSchema, type Secrets } from './secrets.ts'

/** Keys decrypted for this session, plus the derived key to re-encrypt changes without asking again. */
export interface UnlockedSecrets {
  secrets: Secrets
  key: DerivedKey
}

export type StoredSecrets =
  { state: 'plain'; secrets: Secrets } | { state: 'locked'; row: Extract<SecretsRow, { state: 'locked' }> }

/** Reads the secrets row, validating it; a missing or unreadable plain row reads as no keys. */
export async function readStoredSecrets(db: WardflowDb): Promise<StoredSecrets> {
  const row = await guard('reading keys', () => db.secrets.get(SECRETS_ROW_ID))
  if (row?.state === 'locked') {
    const envelope = encryptedEnvelopeSchema.safeParse(row.envelope)
    if (!envelope.success)
      throw new FlowError('STORAGE_FAILED', 'The locked keys are damaged and cannot be decrypted.', {
        details: { damaged: true },
      })
    return { state: 'locked', row: { ...row, envelope: envelope.data } }
  }
  const secrets = secretsSchema.safeParse(row?.state === 'plain' ? row.providers : [])
  return { state: 'plain', secrets: secrets.success ? secrets.data : [] }
}

/** True while keys are encrypted at rest. */
export async function isLocked(db: WardflowDb): Promise<boolean> {
  return (await readStoredSecrets(db)).state === 'locked'
}

async function writeIfUnchanged(
  db: WardflowDb,
  expected: SecretsRow | undefined,
  next: SecretsRow,
): Promise<void> {
  await guard('saving keys', () =>
    db.transaction('rw', db.secrets, () => commitSecretsWrite(db, { expected, next })),
  )
}

/** Encrypts the stored keys with `passphrase`. Returns the session so the app stays unlocked. */
export async function lockSecrets(db: WardflowDb, passphrase: string): Promise<UnlockedSecrets> {
  checkPassphrase(passphrase)
  const before = await guard('reading keys', () => db.secrets.get(SECRETS_ROW_ID))
  const stored = await readStoredSecrets(db)
  if (stored.state === 'locked')
    throw new FlowError(
      'KEY_LOCKED',
      'The keys are already locked. Unlock them first to change the passphrase.',
    )
  const key = await deriveKey(passphrase)
  const envelope = await encryptWithKey(stored.secrets, key)
  await writeIfUnchanged(db, before, { id: SECRETS_ROW_ID, state: 'locked', envelope })
  return { secrets: stored.secrets, key }
}

/** Decrypts the keys for this session; the stored row stays encrypted. Wrong passphrase: WRONG_PASSPHRASE. */
export async function unlockSecrets(db: WardflowDb, passphrase: string): Promise<UnlockedSecrets> {
  const stored = await readStoredSecrets(db)
  if (stored.state === 'plain') throw new FlowError('KEY_LOCKED', 'The keys are not locked.')
  const { value, derived } = await decryptJson(stored.row.envelope, passphrase)
  const secrets = secretsSchema.safeParse(value)
  if (!secrets.success)
    throw new FlowError('STORAGE_FAILED', 'The locked keys decrypted to something unreadable.')
  return { secrets: secrets.data, key: derived }
}

/** Turns the lock off: decrypts and stores the keys in plain text again. */
export async function removeSecretsLock(db: WardflowDb, passphrase: string): Promise<Secrets> {
  const before = await guard('reading keys', () => db.secrets.get(SECRETS_ROW_ID))
  const { secrets } = await unlockSecrets(db, passphrase)
  await writeIfUnchanged(db, before, { id: SECRETS_ROW_ID, state: 'plain', providers: secrets })
  return secrets
}

/** A secrets row ready to be written, and the row it expects to replace (compare-and-set). */
export interface SecretsWrite {
  expected: SecretsRow | undefined
  next: SecretsRow
}

/**
 * Prepares replacing the stored keys (encrypting while locked). While locked a session (from
 * unlockSecrets/lockSecrets) is needed; without one this is KEY_LOCKED and nothing changes.
 */
export async function prepareSecretsWrite(
  db: WardflowDb,
  secrets: Secrets,
  session?: UnlockedSecrets,
): Promise<SecretsWrite> {
  const expected = await guard('reading keys', () => db.secrets.get(SECRETS_ROW_ID))
  if (expected?.state !== 'locked')
    return { expected, next: { id: SECRETS_ROW_ID, state: 'plain', providers: secrets } }
  if (session === undefined)
    throw new FlowError('KEY_LOCKED', 'The keys are locked. Unlock them with your passphrase to change them.')
  // A session opened with another passphrase must not silently re-key the store.
  await decryptWithKey(expected.envelope, session.key)
  return {
    expected,
    next: { id: SECRETS_ROW_ID, state: 'locked', envelope: await encryptWithKey(secrets, session.key) },
  }
}

/** Writes a prepared secrets row inside the caller's transaction, refusing if the row changed meanwhile. */
export async function commitSecretsWrite(db: WardflowDb, write: SecretsWrite): Promise<void> {
  const current = await db.secrets.get(SECRETS_ROW_ID)
  if (JSON.stringify(current) !== JSON.stringify(write.expected)) {
    throw new FlowError(
      'STORAGE_FAILED',
      'The keys changed in another tab meanwhile; nothing was changed. Try again.',
    )
  }
  await db.secrets.put(write.next)
}

/** Replaces the stored keys (see prepareSecretsWrite). */
export async function writeSecrets(
  db: WardflowDb,
  secrets: Secrets,
  session?: UnlockedSecrets,
): Promise<void> {
  const write = await prepareSecretsWrite(db, secrets, session)
  await guard('saving keys', () => db.transaction('rw', db.secrets, () => commitSecretsWrite(db, write)))
  if (session !== undefined) session.secrets = secrets
}
