/**
 * Text from a workflow file, a model or a server, made safe to print on a terminal. A flow name,
 * a node label or a reply may carry escape sequences that retitle the terminal, erase a line and
 * print a fake verdict, or write the clipboard (OSC 52): every control character is shown as
 * visible text (`\x1b`) instead. Only the CLI's own colours reach the terminal as controls.
 */

/** C0 controls but tab and newline, DEL, C1 controls (0x9b is CSI), and bidi overrides. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const CONTROLS_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- as above
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function visible(char: string): string {
  const code = char.charCodeAt(0)
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`
}

/** One line of text (a name, a label, a message): newlines are escaped too, so none is forged. */
export function oneLine(text: string): string {
  return text.replace(CONTROLS, visible)
}

/**
 * Text that may span lines (a streamed reply, an output value). Line ends stay (CRLF becomes a
 * newline; a CR closing a piece is dropped, as its LF may come with the next piece); a CR
 * elsewhere would return to the line's start and overwrite it, so it is shown.
 */
export function manyLines(text: string): string {
  return text.replace(/\r(?=\n)|\r$/g, '').replace(CONTROLS_BUT_NEWLINE, visible)
}

/** Characters JSON leaves raw that a terminal or a line-based reader may act on. */
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** One `--json` line: valid JSON (JSON.parse gives the same value), with no raw control left. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`
}
