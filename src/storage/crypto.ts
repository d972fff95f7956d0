/**
 * Passphrase encryption for full settings exports and locked keys: Web Crypto PBKDF2-SHA-256
 * (KEY_PBKDF2_ITERATIONS) derives an AES-256-GCM key; salt and IV are random per encryption.
 * Works the same in browsers and in Node (globalThis.crypto).
 */
import { z } from '../zodMini.ts'
import {
  KEY_IV_BYTES,
  KEY_PASSPHRASE_MIN_CHARS,
  KEY_PBKDF2_ITERATIONS,
  KEY_PBKDF2_ITERATIONS_RANGE,
  KEY_SALT_BYTES,
} from '../defaults.ts'
import { FlowError } from '../engine/index.ts'

const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/))

export const encryptedEnvelopeSchema = z.object({
  kdf: z.literal('PBKDF2-SHA-256'),
  iterations: z.int().check(z.gte(KEY_PBKDF2_ITERATIONS_RANGE.min), z.lte(KEY_PBKDF2_ITERATIONS_RANGE.max)),
  salt: base64,
  cipher: z.literal('AES-256-GCM'),
  iv: base64,
  data: base64,
})
/** An encrypted JSON value. Holds nothing readable without the passphrase. */
export type EncryptedEnvelope = z.infer<typeof encryptedEnvelopeSchema>

/** A derived key kept in memory while keys are unlocked, so re-encrypting needs no passphrase. */
export interface DerivedKey {
  key: CryptoKey
  salt: Uint8Array<ArrayBuffer>
  iterations: number
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i] ?? 0)
  return btoa(binary)
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}

/** Refuses passphrases too short to protect anything. */
export function checkPassphrase(passphrase: string): void {
  if (passphrase.length < KEY_PASSPHRASE_MIN_CHARS) {
    throw new FlowError(
      'WRONG_PASSPHRASE',
      `The passphrase needs at least ${KEY_PASSPHRASE_MIN_CHARS} characters.`,
      {
        details: { minChars: KEY_PASSPHRASE_MIN_CHARS },
      },
    )
  }
}

/** PBKDF2-SHA-256 -> AES-256-GCM key. */
export async function deriveKey(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer> = randomBytes(KEY_SALT_BYTES),
  iterations: number = KEY_PBKDF2_ITERATIONS,
): Promise<DerivedKey> {
  const subtle = globalThis.crypto.subtle
  const material = await subtle.importKey('raw', encoder.encode(passphrase), 'PBKDF2', false, ['deriveKey'])
  const key = await subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
  return { key, salt, iterations }
}

/** Encrypts `value` (as JSON) with an already derived key and a fresh IV. */
export async function encryptWithKey(value: unknown, derived: DerivedKey): Promise<EncryptedEnvelope> {
  const iv = randomBytes(KEY_IV_BYTES)
  const plain = encoder.encode(JSON.stringify(value))
  const data = new Uint8Array(
    await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv }, derived.key, plain),
  )
  return {
    kdf: 'PBKDF2-SHA-256',
    iterations: derived.iterations,
    salt: toBase64(derived.salt),
    cipher: 'AES-256-GCM',
    iv: toBase64(iv),
    data: toBase64(data),
  }
}

/** Encrypts `value` (as JSON) with a key derived from `passphrase` and a fresh salt. */
export async function encryptJson(value: unknown, passphrase: string): Promise<EncryptedEnvelope> {
  checkPassphrase(passphrase)
  return encryptWithKey(value, await deriveKey(passphrase))
}

/** Decrypts with a derived key; a wrong key or altered data is WRONG_PASSPHRASE (GCM cannot tell them apart). */
export async function decryptWithKey(envelope: EncryptedEnvelope, derived: DerivedKey): Promise<unknown> {
  let plain: ArrayBuffer
  try {
    plain = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(envelope.iv) },
      derived.key,
      fromBase64(envelope.data),
    )
  } catch (error) {
    throw new FlowError('WRONG_PASSPHRASE', 'The passphrase is wrong, or the encrypted data was altered.', {
      cause: error,
    })
  }
  try {
    return JSON.parse(decoder.decode(plain)) as unknown
  } catch (error) {
    throw new FlowError('IMPORT_INVALID', 'The encrypted data decrypted to something that is not JSON.', {
      cause: error,
    })
  }
}

/** Derives the key named by `envelope` from `passphrase` and decrypts. Returns the key too, for re-encrypting. */
export async function decryptJson(
  envelope: EncryptedEnvelope,
  passphrase: string,
): Promise<{ value: unknown; derived: DerivedKey }> {
  const derived = await deriveKey(passphrase, fromBase64(envelope.salt), envelope.iterations)
  return { value: await decryptWithKey(envelope, derived), derived }
}
