/**
 * The `mcp-echo` template against the server its description tells a person to start
 * (server-everything over Streamable HTTP): the index names that server with the command and
 * URL the description gives, and the CLI runs the template file with `--mcp everything=<url>`,
 * the demo reply calling echo, to the server's echo observation; and over stdio, the CLI starting
 * the server itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/engine/index.ts'
import { EVERYTHING_STDIO, startEverything, type RunningServer } from '../support/mcpServers.ts'
import { jsonLines, wardflow } from '../support/wardflowCli.ts'
import { loadTemplate, readIndex } from './harness.ts'

/** This suite's port of 4350-4359 (agentMcp.test.ts takes 4350). */
const PORT = 4352
const FILE = 'public/templates/mcp-echo.wardflow.json'

let everything: RunningServer
beforeAll(async () => {
  everything = await startEverything(PORT)
}, 30_000)
afterAll(async () => {
  await everything?.close()
})

const entry = () => readIndex().templates.find((t) => t.id === 'mcp-echo')

describe('mcp-echo template', { timeout: 60_000 }, () => {
  it('names the server its Agent uses, and the description gives the command and the URL', () => {
    const server = entry()?.mcpServer
    expect(server).toEqual({
      id: 'everything',
      url: 'http://localhost:3001/mcp',
      command: 'npx @modelcontextprotocol/server-everything streamableHttp',
    })
    const doc = loadTemplate('mcp-echo.wardflow.json')
    const agent = doc.nodes.find((n) => n.id === 'agent')
    expect((agent?.data.config as { tools: unknown[] }).tools).toMatchObject([
      { kind: 'mcp', server: 'everything', include: ['echo'] },
    ])
    for (const text of [entry()?.description ?? '', doc.metadata.description ?? '']) {
      expect(text).toContain(server?.command)
      expect(text).toContain(server?.url)
      expect(text).toContain('Settings > MCP servers')
    }
  })

  it('runs in the CLI with --mcp everything=<url>: the echo call returns the server’s echo', async () => {
    const result = await wardflow(['run', FILE, '--mcp', `everything=${everything.url}`, '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const events: RunEvent[] = jsonLines(result.stdout)
    const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'agent')
    expect(finish).toMatchObject({ status: 'success' })
    const calls = finish?.type === 'nodeFinish' ? finish.output['toolCalls'] : undefined
    expect(calls).toEqual([
      { name: 'echo', args: '{"message":"Hello from Wardflow"}', observation: 'Echo: Hello from Wardflow' },
    ])
    expect(events.find((e) => e.type === 'runFinish')).toMatchObject({ status: 'success' })
  })

  it('runs in the CLI over stdio too (the server a child process of the run, closed with it)', async () => {
    const result = await wardflow(['run', FILE, '--mcp', `everything=${EVERYTHING_STDIO}`, '--json'])
    expect(result.code).toBe(0)
    const events: RunEvent[] = jsonLines(result.stdout)
    const finish = events.find((e) => e.type === 'nodeFinish' && e.nodeId === 'agent')
    const calls = finish?.type === 'nodeFinish' ? finish.output['toolCalls'] : undefined
    expect(calls).toEqual([
      { name: 'echo', args: '{"message":"Hello from Wardflow"}', observation: 'Echo: Hello from Wardflow' },
    ])
    expect(events.find((e) => e.type === 'runFinish')).toMatchObject({ status: 'success' })
  })

  it('without the server the Agent fails and the message names the server', async () => {
    const result = await wardflow(['run', FILE, '--json'])
    expect(result.code).toBe(1)
    const failed = jsonLines(result.stdout).find((e) => e.type === 'nodeError')
    expect(failed).toMatchObject({ nodeId: 'agent', code: 'MCP_UNREACHABLE' })
    expect(failed?.type === 'nodeError' ? failed.message : '').toContain(
      'MCP server "everything" is not set up: add it in Settings > MCP servers',
    )
  })
})
