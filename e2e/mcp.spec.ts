/**
 * MCP servers in settings against a real MCP server (server-everything over Streamable HTTP,
 * started here) behind a proxy that can break one CORS rule: Test lists what it offers; a
 * server whose replies lack Access-Control-Allow-Origin gets the reason and the fix; a saved
 * server survives a reload.
 */
import { startCorsProxy, type CorsProxy } from '../tests/support/corsProxy.ts'
import { startEverything, type RunningServer } from '../tests/support/mcpServers.ts'
import { expect, test } from './support/fixtures.ts'

/** Its own port, away from the unit tests' 4350-4359 and 4451 (E2E_MCP_PORT for a second run). */
const EVERYTHING_PORT = Number(process.env.E2E_MCP_PORT ?? 4471)

/**
 * The browser logs the blocked replies of the CORS-broken step, and server-everything answers
 * 400 to the optional GET event stream the MCP client opens (the protocol allows a server to
 * refuse it); nothing else may fail.
 */
test.use({
  allowedErrors:
    /CORS policy|net::ERR_FAILED|HTTP 400 GET http:\/\/127\.0\.0\.1:\d+\/mcp$|status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/mcp\)/,
})

let everything: RunningServer
let proxy: CorsProxy

test.beforeAll(async () => {
  everything = await startEverything(EVERYTHING_PORT)
  proxy = await startCorsProxy(`http://127.0.0.1:${EVERYTHING_PORT}`)
})

test.afterAll(async () => {
  await proxy?.close()
  await everything?.close()
})

test('an MCP server added in settings is tested: its tools, or why the page cannot reach it', async ({
  app,
}) => {
  const { settings } = app
  await app.open()
  await settings.open()
  await settings.tab('MCP servers')
  const tab = settings.dialog.getByTestId('mcp-servers')
  await expect(tab).toContainText('No MCP server yet.')

  await tab.getByTestId('mcp-server-add').click()
  // The form takes the list's place while it is open.
  const form = settings.dialog.getByTestId('mcp-server-form')
  await form.getByTestId('mcp-server-name').fill('Everything')
  await form.getByTestId('mcp-server-id').fill('everything')
  await form.getByTestId('mcp-server-url').fill(proxy.url)

  // A healthy server: connected, and its tools are listed by name.
  await form.getByTestId('mcp-server-test').click()
  const result = form.getByTestId('mcp-server-test-result')
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 20_000 })
  await expect(result).toContainText(/Connected\. The server offers \d+ tools:/)
  await expect(form.getByTestId('mcp-server-tool').filter({ hasText: 'echo' }).first()).toBeVisible()

  // The same server with its CORS header stripped: the reason and the fix on the server.
  proxy.fault = 'origin'
  await form.getByTestId('mcp-server-test').click()
  await expect(result).not.toHaveAttribute('data-ok', 'true', { timeout: 20_000 })
  await expect(result).toContainText('lack Access-Control-Allow-Origin')
  proxy.fault = 'none'

  await form.getByTestId('mcp-server-save').click()
  await expect(tab.getByTestId('mcp-server-item')).toHaveCount(1)
  await expect(tab.getByTestId('mcp-server-item')).toContainText('Everything')

  await app.reload()
  await settings.open()
  await settings.tab('MCP servers')
  await expect(settings.dialog.getByTestId('mcp-server-item')).toHaveAttribute('data-server-id', 'everything')
})
