import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, wardflow, jsonLines } from '../support/wardflowCli.ts'

const FIXTURE = 'tests/fixtures/cli/subflow.wardflow.json'

describe('wardflow run with sub-flows (spawned)', { timeout: 60_000 }, () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wardflow-subflow-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('runs a version 2 file with the sub-flows it carries, nested two deep, exit 0', async () => {
    const result = await wardflow(['run', FIXTURE, '--json', '--input', 'topic=tea'])
    // A hand-written file: the only lines on stderr are the notes on what the import filled in.
    expect(result.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('wardflow: warning:'))).toEqual(
      [],
    )
    expect(result.code).toBe(0)
    const events = jsonLines(result.stdout)
    expect(events[0]).toMatchObject({ type: 'runStart', flowId: 'cli_caller', nodeIds: ['q', 'call', 'out'] })
    expect(events.filter((e) => e.type === 'runStart')).toHaveLength(1)
    const out = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'out' && e.path === undefined)
    expect(out).toMatchObject({ output: { result: 'tea! / tea tea' } })
    const paths = new Set(events.filter((e) => e.path).map((e) => JSON.stringify(e.path)))
    expect([...paths].sort()).toEqual(['["call","inner"]', '["call"]'])
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'success' })
  })

  it('prints the calling flow’s log, the called flows’ text under the calling node, and its outputs', async () => {
    const result = await wardflow(['run', FIXTURE])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('✓ Shout (call) finished')
    // The called flows' nodes get no lines of their own, only their streamed text, named by the way down.
    expect(result.stdout).toContain('── Shout (call) › inner › o ──\ntea tea\n')
    expect(result.stdout).not.toMatch(/● .*inner|✓ .*inner/)
    expect(result.stdout).toMatch(/Outputs\n {2}result: tea! \/ tea tea\n/)
  })

  it('refuses a file whose sub-flows call back into it, naming the chain, exit 2', async () => {
    const file = JSON.parse(await readFile(resolve(ROOT, FIXTURE), 'utf8')) as {
      subflows: Array<{ nodes: Array<{ id: string; data: { config: Record<string, unknown> } }> }>
    }
    const inner = file.subflows[1]?.nodes.find((n) => n.id === 'o')
    // `echo` now calls the caller itself: cli_caller -> shout -> echo -> cli_caller.
    file.subflows[1]?.nodes.push({
      id: 'back',
      data: { config: { flow: 'cli_caller' } },
      type: 'subflow',
    } as never)
    expect(inner).toBeDefined()
    const path = join(dir, 'circle.wardflow.json')
    await writeFile(path, JSON.stringify(file))
    const result = await wardflow(['run', path, '--json'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('cli_caller -> shout -> echo -> cli_caller')
  })

  it('refuses a file that calls a flow it does not carry, exit 2', async () => {
    const file = JSON.parse(await readFile(resolve(ROOT, FIXTURE), 'utf8')) as { subflows: unknown[] }
    file.subflows = file.subflows.slice(0, 1)
    const path = join(dir, 'missing.wardflow.json')
    await writeFile(path, JSON.stringify(file))
    const result = await wardflow(['run', path])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('there is no flow "echo" to run as a sub-flow')
  })

  it('a refused PatchCat file still prints its import notes, and says where the CLI finds called flows', async () => {
    // PatchCat names the workflow a sub-workflow node calls; the file does not carry it.
    const patchcat = {
      version: '1.0.0',
      metadata: { id: 'pc-caller', name: 'Caller' },
      nodes: [
        { id: 'inp', type: 'input', position: { x: 0, y: 0 }, data: { label: 'In', inputs: { q: 'hi' } } },
        {
          id: 'call',
          type: 'sub-workflow',
          position: { x: 300, y: 0 },
          data: {
            label: 'Call',
            inputs: { text: '{{inp.q}}' },
            config: { targetWorkflowId: 'wf-summarise' },
          },
        },
      ],
      edges: [{ id: 'e1', source: 'inp', target: 'call' }],
    }
    const path = join(dir, 'patchcat-sub.json')
    await writeFile(path, JSON.stringify(patchcat))
    const result = await wardflow(['run', path])
    expect(result.code).toBe(2)
    const lines = result.stderr.trim().split('\n')
    // The note on the call comes first (it was dropped when the run was refused) ...
    expect(lines.some((l) => l.startsWith('wardflow: warning:') && l.includes('"wf-summarise"'))).toBe(true)
    // ... then the refusal, saying how to give the CLI that flow.
    expect(lines.at(-1)).toContain('there is no flow "wf-summarise" to run as a sub-flow')
    expect(lines.at(-1)).toContain('"subflows"')
  })
})
