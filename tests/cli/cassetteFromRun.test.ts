/**
 * A browser run's cassette (app/runs/cassetteFile.ts, what History's `run-cassette-download`
 * saves) beside the flow's export: the real `wardflow test` replays it with no network and
 * passes, and fails once the recorded outcome no longer matches.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cassetteFileName, cassetteFileOf } from '../../src/app/runs/cassetteFile.ts'
import type { RunRecord } from '../../src/storage/rows.ts'
import { exportWorkflowText, parseWorkflowText, workflowFileName } from '../../src/storage/workflowFile.ts'
import { cassetteFlow, runOnce, scriptedCtx } from '../support/cassetteRun.ts'
import { wardflow } from '../support/wardflowCli.ts'

const SECRET = 'sk-cassette-secret-0123456789'
let folder: string | undefined

afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true })
  folder = undefined
})

/** The flow as the browser holds it: its export read back (configs with their defaults). */
function storedFlow() {
  const parsed = parseWorkflowText(exportWorkflowText(cassetteFlow()))
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  return parsed.doc
}

async function browserRun(): Promise<{ record: RunRecord; flowText: string }> {
  const doc = storedFlow()
  const events = await runOnce(doc, (clock) => scriptedCtx(clock))
  const record: RunRecord = {
    id: 'run_1',
    flowId: doc.metadata.id,
    startedAt: 0,
    finishedAt: 1,
    status: 'success',
    inputs: {},
    outputs: {},
    events: JSON.parse(JSON.stringify(events)) as unknown[],
    usage: { prompt: 0, completion: 0, total: 0, estimated: false },
    timings: {},
    flow: doc,
  }
  return { record, flowText: exportWorkflowText(doc) }
}

describe('a browser run as a cassette, replayed by wardflow test', () => {
  it('passes beside the flow, with no key in the file', async () => {
    const { record, flowText } = await browserRun()
    const { text } = cassetteFileOf(record, { secrets: [SECRET] })
    expect(cassetteFileName(record)).toBe('Cassette flow.cassette.json')
    folder = await mkdtemp(join(tmpdir(), 'wardflow-cassette-'))
    await writeFile(join(folder, workflowFileName('Cassette flow')), flowText)
    await writeFile(join(folder, cassetteFileName(record)), text)
    const result = await wardflow(['test', folder])
    expect(result.stderr).toContain('1 of 1 flows match their cassettes')
    expect(result.stdout).toContain('ok   Cassette flow.wardflow.json')
    expect(result.code).toBe(0)

    // The replayed outcome is compared: a recorded answer that differs fails the test.
    const cassettePath = join(folder, cassetteFileName(record))
    const changed = JSON.parse(await readFile(cassettePath, 'utf8')) as {
      expected: { outputs: Record<string, unknown> }
    }
    changed.expected.outputs['answer'] = 'Something else.'
    await writeFile(cassettePath, JSON.stringify(changed))
    const failed = await wardflow(['test', folder])
    expect(failed.stdout).toContain('outputs.answer: recorded "Something else.", now "There are none."')
    expect(failed.code).toBe(1)
  }, 60_000)

  it('scrubs a key a prompt carried', async () => {
    const { record } = await browserRun()
    const leaky = JSON.parse(JSON.stringify(record.events).replaceAll('pending orders', SECRET)) as unknown[]
    const { text } = cassetteFileOf({ ...record, events: leaky }, { secrets: [SECRET] })
    expect(text).not.toContain(SECRET)
    expect(text).toContain('[redacted]')
  })
})
