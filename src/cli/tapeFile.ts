/**
 * `--record FILE` and `--replay FILE` for the CLI's runs: the ports a run gets (cassette/tape.ts)
 * and the cassette file written at the end of a recording. A Tape may be shared by many runs
 * (`wardflow batch --replay`), each replayed call being taken once.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parseCassette, type Cassette, type RunExpectation } from '../cassette/format.ts'
import { Player, Recorder } from '../cassette/tape.ts'
import { scrubText, type FetchLike, type ProviderResolver } from '../engine/index.ts'
import { BadInput } from './load.ts'

export interface Tape {
  providers(inner: ProviderResolver): ProviderResolver
  fetch(inner: FetchLike): FetchLike
  /** Writes the recording (with what the run produced), when recording; `secrets` never reach it. */
  save(
    inputs: Readonly<Record<string, string>>,
    expected?: RunExpectation,
    secrets?: readonly string[],
  ): Promise<void>
}

/** Neither flag: the real ports. */
const PASS_THROUGH: Tape = {
  providers: (inner) => inner,
  fetch: (inner) => inner,
  save: () => Promise.resolve(),
}

/** Reads a cassette file, or refuses it as bad input (exit 2) saying why. */
export async function readCassette(path: string): Promise<Cassette> {
  let json: unknown
  try {
    json = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new BadInput(
      `cannot read the cassette ${path}: ${code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}`,
    )
  }
  const parsed = parseCassette(json)
  if (!parsed.ok) throw new BadInput(`cannot read the cassette ${path}: ${parsed.reason}`)
  return parsed.cassette
}

export function playerTape(cassette: Cassette, name: string): Tape {
  const player = new Player(cassette, name)
  return { providers: () => player.providers(), fetch: () => player.fetch(), save: () => Promise.resolve() }
}

function recorderTape(path: string): Tape {
  const recorder = new Recorder()
  return {
    providers: (inner) => recorder.providers(inner),
    fetch: (inner) => recorder.fetch(inner),
    save: (inputs, expected, secrets = []) => {
      const text = JSON.stringify(recorder.cassette(inputs, expected), null, 2)
      return writeFile(path, `${secrets.length === 0 ? text : scrubText(text, secrets)}\n`, 'utf8')
    },
  }
}

/** The tape `--record` / `--replay` ask for. */
export async function openTape(options: { record?: string; replay?: string }): Promise<Tape> {
  if (options.replay !== undefined) return playerTape(await readCassette(options.replay), options.replay)
  if (options.record !== undefined) return recorderTape(options.record)
  return PASS_THROUGH
}
