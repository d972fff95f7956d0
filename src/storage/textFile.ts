/**
 * The one way a file a person hands us becomes text, in the browser (import) and the CLI
 * (workflow files, demo scripts): a byte order mark picks UTF-8, UTF-16LE or UTF-16BE and is
 * dropped; BOM-less UTF-16 is recognised by the NUL bytes of its first (ASCII) character, as
 * every JSON file starts with one; anything else is UTF-8, invalid bytes shown as U+FFFD.
 */
type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be'

function sniff(bytes: Uint8Array): { encoding: Encoding; skip: number } {
  const [a, b, c] = bytes
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', skip: 3 }
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', skip: 2 }
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', skip: 2 }
  if (bytes.length >= 2 && a !== 0 && b === 0) return { encoding: 'utf-16le', skip: 0 }
  if (bytes.length >= 2 && a === 0 && b !== 0) return { encoding: 'utf-16be', skip: 0 }
  return { encoding: 'utf-8', skip: 0 }
}

/** The text of a file's bytes, without its byte order mark. */
export function decodeTextFile(bytes: Uint8Array): string {
  const { encoding, skip } = sniff(bytes)
  // ignoreBOM: the mark was already skipped; a second one is content, as the file has it.
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(skip))
}

/** The text of a browser File (import of a workflow or a settings file). */
export async function readTextFile(file: Blob): Promise<string> {
  return decodeTextFile(new Uint8Array(await file.arrayBuffer()))
}
