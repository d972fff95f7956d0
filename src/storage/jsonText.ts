/** Reading untrusted JSON text: size cap, BOM, syntax errors with line and column, depth cap. */
import { IMPORT_MAX_FILE_BYTES, IMPORT_MAX_JSON_DEPTH } from '../defaults.ts'
import { jsonDepth, type ImportProblem } from './restore/schema.ts'

const BYTES_PER_CHAR_MAX = 3

function utf8Length(text: string): number {
  // Cheap bounds first: every UTF-16 unit is 1 to 3 UTF-8 bytes.
  if (text.length > IMPORT_MAX_FILE_BYTES) return text.length
  if (text.length * BYTES_PER_CHAR_MAX <= IMPORT_MAX_FILE_BYTES) return text.length
  return new TextEncoder().encode(text).length
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position)
  const line = before.split('\n').length
  return { line, column: position - before.lastIndexOf('\n') }
}

/** Describes a JSON.parse failure with a line and column whatever the JS engine's wording. */
function syntaxProblem(text: string, error: unknown): ImportProblem {
  const raw = error instanceof Error ? error.message : String(error)
  const lineCol = /line (\d+) column (\d+)/i.exec(raw)
  const position = /position (\d+)/i.exec(raw)
  let where = ''
  let at: { line: number; column: number } | undefined
  if (lineCol) at = { line: Number(lineCol[1]), column: Number(lineCol[2]) }
  else if (position) at = lineAndColumn(text, Number(position[1]))
  if (at) where = ` at line ${at.line}, column ${at.column}`
  const cutOff = !at && /end of (json )?(input|data)/i.test(raw)
  if (cutOff) where = ' (it ends too early; the file may be cut off)'
  const message = `The file is not valid JSON${where}. ${raw}`
  if (at) return { path: '', message, key: 'issues:importProblem.notJsonAt', params: { ...at, detail: raw } }
  return {
    path: '',
    message,
    key: cutOff ? 'issues:importProblem.cutOff' : 'issues:importProblem.notJson',
    params: { detail: raw },
  }
}

function tooDeep(what: string): ImportProblem {
  return {
    path: '',
    message: `The ${what} nests deeper than ${IMPORT_MAX_JSON_DEPTH} levels, which no real ${what} does.`,
    key: 'issues:importProblem.tooDeep',
    params: { max: IMPORT_MAX_JSON_DEPTH },
  }
}

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; problems: ImportProblem[] }

/** Parses JSON text a person handed us. Never throws. */
export function readJsonText(text: unknown, what: string): JsonTextResult {
  if (typeof text !== 'string')
    return {
      ok: false,
      problems: [{ path: '', message: `The ${what} is not text.`, key: 'issues:importProblem.notText' }],
    }
  const bytes = utf8Length(text)
  if (bytes > IMPORT_MAX_FILE_BYTES) {
    const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1)
    return {
      ok: false,
      problems: [
        {
          path: '',
          message: `The ${what} is ${mb(bytes)} MB; the limit is ${mb(IMPORT_MAX_FILE_BYTES)} MB.`,
          key: 'issues:importProblem.tooLarge',
          params: { size: mb(bytes), max: mb(IMPORT_MAX_FILE_BYTES) },
        },
      ],
    }
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (body.trim() === '')
    return {
      ok: false,
      problems: [{ path: '', message: `The ${what} is empty.`, key: 'issues:importProblem.empty' }],
    }
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, problems: [tooDeep(what)] }
    return { ok: false, problems: [syntaxProblem(body, error)] }
  }
  if (jsonDepth(value, IMPORT_MAX_JSON_DEPTH) > IMPORT_MAX_JSON_DEPTH) {
    return { ok: false, problems: [tooDeep(what)] }
  }
  return { ok: true, value }
}
