import { canonicalJson } from './canonicalJson.ts'

const WHITESPACE_RUN = /\s+/g

/**
 * The loop guard's identity of a tool call: the tool name plus its arguments in canonical form
 * (docs/guard.md, layer 2). Two calls have the same signature exactly when they name the same
 * tool with the same JSON value: key order, whitespace outside strings, number spelling
 * (`1`, `1.0`, `1e0`; `-0` and `0`), string escapes and Unicode normalisation (NFC) do not
 * matter; array order, `null` versus a missing key and `"1"` versus `1` do. A top-level value
 * that is not an object is signed with its type; text that is not valid JSON is compared as
 * raw text with runs of whitespace collapsed. Never throws.
 *
 * @param name the tool name, compared exactly
 * @param rawArgs the argument string exactly as the model sent it
 */
export function canonicalToolSignature(name: string, rawArgs: string): string {
  const prefix = JSON.stringify(String(name)) + ' '
  const text = typeof rawArgs === 'string' ? rawArgs : describe(rawArgs)
  try {
    const canonical = canonicalJson(text)
    if (canonical !== undefined) return prefix + canonical.kind + ':' + canonical.text
    return prefix + 'raw:' + text.replace(WHITESPACE_RUN, ' ').trim()
  } catch {
    // Only a host limit (out of memory, string too long) gets here; fall back to length + head.
    return prefix + 'unreadable:' + String(text.length) + ':' + text.slice(0, 64)
  }
}

/** Arguments that arrive as something other than a string (a loose caller) are read as JSON. */
function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
