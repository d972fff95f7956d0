/**
 * The settings' server check against real server-everything behind a proxy that breaks one
 * CORS rule at a time, through a fetch that keeps a browser's CORS rules: each fault gets its
 * own reason, and a healthy server lists its tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserMcp } from '../../src/app/runs/browserMcp.ts'
import { checkMcpServer } from '../../src/mcp/diagnose.ts'
import { defaultSettings } from '../../src/settings/schema.ts'
import { corsFetch } from '../support/corsFetch.ts'
import { startCorsProxy, type CorsProxy } from '../support/corsProxy.ts'
import { startEverything, type RunningServer } from '../support/mcpServers.ts'

const EVERYTHING_PORT = Number(process.env.MCP_DIAG_PORT ?? 4451)
const fetchFromPage = corsFetch('http://127.0.0.1:4183')

let everything: RunningServer
let proxy: CorsProxy

beforeAll(async () => {
  everything = await startEverything(EVERYTHING_PORT)
  proxy = await startCorsProxy(`http://127.0.0.1:${EVERYTHING_PORT}`)
}, 30_000)

afterAll(async () => {
  await proxy.close()
  await everything.close()
})

function check(url = proxy.url, headers: Record<string, string> = {}) {
  return checkMcpServer({
    url,
    headers,
    fetch: fetchFromPage,
    connectTimeoutMs: 5_000,
    probeTimeoutMs: 3_000,
  })
}

describe('checkMcpServer', () => {
  it('lists the tools of a server that sends every CORS header', async () => {
    proxy.fault = 'none'
    const result = await check()
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const echo = result.tools.find((t) => t.name === 'echo')
    expect(echo?.description).toMatch(/echo/i)
    expect(result.tools.length).toBeGreaterThan(3)
  })

  it('names a missing Access-Control-Allow-Origin', async () => {
    proxy.fault = 'origin'
    expect(await check()).toEqual({ ok: false, reason: 'corsOrigin' })
  })

  it('names mcp-protocol-version missing from Access-Control-Allow-Headers', async () => {
    proxy.fault = 'allowHeaders'
    expect(await check()).toEqual({
      ok: false,
      reason: 'corsHeaders',
      headers: ['mcp-protocol-version', 'mcp-session-id'],
    })
  })

  it('names Mcp-Session-Id missing from Access-Control-Expose-Headers', async () => {
    proxy.fault = 'expose'
    expect(await check()).toEqual({ ok: false, reason: 'corsExpose' })
  })

  it('gives the HTTP status and the server words', async () => {
    proxy.fault = 'status401'
    expect(await check()).toEqual({
      ok: false,
      reason: 'http',
      status: 401,
      detail: 'missing or wrong token',
    })
  })

  it('says when nothing listens, and when the address is no URL', async () => {
    proxy.fault = 'none'
    expect(await check('http://127.0.0.1:9/mcp')).toEqual({ ok: false, reason: 'unreachable' })
    expect(await check('ftp://example.com/mcp')).toEqual({ ok: false, reason: 'badUrl' })
  })
})

describe('browserMcp (the run port from settings)', () => {
  it('calls a settings server through the page fetch and closes with the run', async () => {
    proxy.fault = 'none'
    const settings = defaultSettings()
    settings.mcpServers.push({ id: 'everything', name: 'Everything', url: proxy.url, headers: [] })
    const port = browserMcp({
      settings: () => settings,
      fetch: fetchFromPage,
      unlock: async () => true,
      isLocked: () => false,
    })
    expect(port.servers()).toEqual(['everything'])
    const signal = new AbortController().signal
    const tools = await port.listTools('everything', signal)
    expect(tools.map((t) => t.name)).toContain('echo')
    const reply = await port.callTool(
      'everything',
      'echo',
      { message: 'hi there' },
      { signal, timeoutMs: 5_000 },
    )
    expect(reply).toEqual({ text: 'Echo: hi there', isError: false })
    await port.close()
  })

  it('fails with KEY_LOCKED when header values stay locked', async () => {
    const settings = defaultSettings()
    settings.mcpServers.push({
      id: 's',
      name: '',
      url: proxy.url,
      headers: [{ key: 'Authorization', value: '' }],
    })
    const port = browserMcp({
      settings: () => settings,
      fetch: fetchFromPage,
      unlock: async () => false,
      isLocked: () => true,
    })
    await expect(port.listTools('s', new AbortController().signal)).rejects.toMatchObject({
      code: 'KEY_LOCKED',
    })
  })
})
