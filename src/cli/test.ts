/**
 * `wardflow test <folder>`: replays every `*.wardflow.json` beside its `*.cassette.json` (no
 * network, the inputs it was recorded with) and compares the status, outputs and guard events
 * with the recorded ones. Exit 0 all match, 1 a difference (or a request the cassette does not
 * hold), 2 bad input (no such folder, no flows, an unreadable cassette).
 */
import { readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { CASSETTE_DIFFS_SHOWN_MAX } from '../defaults.ts'
import { expectationDifferences } from '../cassette/diff.ts'
import { keyedRecord } from '../engine/index.ts'
import { BadInput, loadWorkflow } from './load.ts'
import { outcomeCollector, run, type RunIo } from './main.ts'
import type { TestOptions } from './manyArgs.ts'
import { playerTape, readCassette } from './tapeFile.ts'
import { jsonLine, oneLine } from './terminalText.ts'

const FLOW_SUFFIX = '.wardflow.json'
const CASSETTE_SUFFIX = '.cassette.json'

async function flowFiles(folder: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true })
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
        await walk(path)
      else if (entry.isFile() && entry.name.endsWith(FLOW_SUFFIX)) found.push(path)
    }
  }
  await walk(folder)
  return found
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    (info) => info.isFile(),
    () => false,
  )

interface FlowReport {
  flow: string
  cassette: string
  result: 'pass' | 'fail' | 'skip'
  differences: string[]
}

async function testFlow(flow: string, cassettePath: string, io: RunIo): Promise<string[]> {
  const cassette = await readCassette(cassettePath)
  if (cassette.expected === undefined)
    throw new BadInput(
      `the cassette ${cassettePath} holds no recorded outcome: record it with "wardflow run --record".`,
    )
  const loaded = await loadWorkflow(flow)
  const collector = outcomeCollector(loaded.doc)
  const inputs = keyedRecord<string>()
  Object.assign(inputs, cassette.inputs)
  let errors: string[] = []
  await run(
    {
      command: 'run',
      file: flow,
      inputs,
      knowledge: keyedRecord(),
      mcp: [],
      otlpHeaders: keyedRecord(),
      traceContent: false,
      stream: true,
      json: false,
      replay: cassettePath,
    },
    io,
    {
      loaded,
      tape: playerTape(cassette, cassettePath),
      onEvent: (event) => {
        collector.push(event)
        if (event.type === 'nodeError' && event.code === 'REPLAY_MISSING')
          errors = [...errors, `${event.nodeId}: ${event.message}`]
      },
    },
  )
  return [...errors, ...expectationDifferences(cassette.expected, collector.expectation())]
}

export async function testCommand(options: TestOptions, io: RunIo): Promise<number> {
  const info = await stat(options.folder).catch(() => undefined)
  if (info === undefined || !info.isDirectory())
    throw new BadInput(`cannot test ${options.folder}: it is not a folder`)
  const flows = await flowFiles(options.folder)
  if (flows.length === 0) throw new BadInput(`no *${FLOW_SUFFIX} files in ${options.folder}`)
  const reports: FlowReport[] = []
  for (const flow of flows) {
    const cassette = `${flow.slice(0, -FLOW_SUFFIX.length)}${CASSETTE_SUFFIX}`
    const name = relative(options.folder, flow) || flow
    if (!(await exists(cassette))) {
      reports.push({ flow: name, cassette, result: 'skip', differences: [] })
    } else {
      const differences = await testFlow(flow, cassette, io)
      reports.push({ flow: name, cassette, result: differences.length === 0 ? 'pass' : 'fail', differences })
    }
    const report = reports[reports.length - 1] as FlowReport
    if (options.json) io.out.write(jsonLine(report))
    else printReport(report, io)
  }
  const failed = reports.filter((r) => r.result === 'fail').length
  const tested = reports.filter((r) => r.result !== 'skip').length
  io.err.write(
    `wardflow: ${tested - failed} of ${tested} flows match their cassettes${failed > 0 ? `, ${failed} differ` : ''}\n`,
  )
  if (tested === 0) throw new BadInput(`no flow in ${options.folder} has a *${CASSETTE_SUFFIX} beside it`)
  return failed === 0 ? 0 : 1
}

function printReport(report: FlowReport, io: RunIo): void {
  const word = report.result === 'pass' ? 'ok  ' : report.result === 'fail' ? 'FAIL' : 'skip'
  const why = report.result === 'skip' ? ' (no cassette beside it)' : ''
  io.out.write(`${word} ${oneLine(report.flow)}${why}\n`)
  const shownDiffs = report.differences.slice(0, CASSETTE_DIFFS_SHOWN_MAX)
  for (const line of shownDiffs) io.out.write(`     ${oneLine(line)}\n`)
  const more = report.differences.length - shownDiffs.length
  if (more > 0) io.out.write(`     … and ${more} more differences\n`)
}
