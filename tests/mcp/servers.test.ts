/** `--mcp` values, stdio command lines and MCP replies as observation text. */
import { describe, expect, it } from 'vitest'
import { callResultText, cutText } from '../../src/mcp/result.ts'
import { parseMcpOption, splitCommand } from '../../src/mcp/servers.ts'
import { parseArgs } from '../../src/cli/args.ts'
import { modelToolName } from '../../src/nodes/agent/mcpTools.ts'

describe('--mcp', () => {
  it('reads <id>=<url> and <id>=stdio:<command>', () => {
    expect(parseMcpOption('a=https://x.example/mcp')).toEqual({
      id: 'a',
      transport: 'http',
      url: 'https://x.example/mcp',
    })
    expect(parseMcpOption("b=stdio:node 'my dir/server.js' --flag\\ x")).toEqual({
      id: 'b',
      transport: 'stdio',
      command: 'node',
      args: ['my dir/server.js', '--flag x'],
    })
  })

  it('says what is wrong', () => {
    expect(parseMcpOption('nourl')).toEqual({
      error: '--mcp expects <id>=<url> or <id>=stdio:<command>, got "nourl".',
    })
    expect(parseMcpOption('a=stdio:  ')).toEqual({ error: '--mcp a=stdio: needs a command after "stdio:".' })
    expect(parseMcpOption('a=ftp://h/x')).toEqual({
      error: '--mcp a= expects an http(s) URL or stdio:<command>, got "ftp://h/x".',
    })
    const twice = parseArgs(['run', 'f.json', '--mcp', 'a=http://h/mcp', '--mcp', 'a=http://g/mcp'])
    expect(twice).toEqual({ command: 'error', reason: '--mcp a is given twice.' })
  })

  it('splits command lines like a shell would, without one', () => {
    expect(splitCommand(`npx -y "@scope/pkg" '' a\\"b`)).toEqual(['npx', '-y', '@scope/pkg', '', 'a"b'])
  })
})

describe('MCP replies as text', () => {
  it('joins text parts and names images, audio and resources', () => {
    const reply = callResultText({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b', mimeType: 'application/pdf', blob: 'AA==' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
    })
    expect(reply).toEqual({
      text: 'one\n[image image/png, 3 bytes]\ninside\n[resource file:///b (application/pdf)]\n[resource link file:///c "c"]',
      isError: false,
    })
  })

  it('falls back to structured content, and keeps isError', () => {
    expect(callResultText({ content: [], structuredContent: { n: 1 }, isError: true })).toEqual({
      text: '{"n":1}',
      isError: true,
    })
  })

  it('cuts long replies with a line, never inside a surrogate pair', () => {
    expect(cutText('abcdef', 4)).toBe(
      'abcd\n[Reply cut: showing 4 of 6 characters (limit MCP_RESULT_MAX_CHARS).]',
    )
    expect(cutText('abc😀def', 4)).toBe(
      'abc\n[Reply cut: showing 3 of 8 characters (limit MCP_RESULT_MAX_CHARS).]',
    )
  })

  it('spells MCP tool names the way model APIs accept them, unique', () => {
    expect(modelToolName('files.read/v2', new Set())).toBe('files_read_v2')
    expect(modelToolName('echo', new Set(['echo']))).toBe('echo_2')
  })
})
