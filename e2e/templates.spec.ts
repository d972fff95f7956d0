/**
 * Every template of the gallery opens as a new flow and runs offline with the demo provider,
 * with no key configured: to success, or (the guard demos) to the guard's stop with the Output
 * still receiving an answer, or (a whole-run budget demo) to the run's stop, its running agents
 * failed with RUN_BUDGET and the rest skipped. Nothing asks for a key. A template whose index entry names an
 * `mcpServer` needs a server the person starts locally: its test starts server-everything (as
 * the description's command would), adds it in Settings > MCP servers under that id, and runs.
 */
import { readFileSync } from 'node:fs'
import { startEverything, type RunningServer } from '../tests/support/mcpServers.ts'
import { expect, test } from './support/fixtures.ts'

interface TemplateEntry {
  id: string
  name: string
  tags: string[]
  /** The local MCP server the template's Agent uses (tests/templates/harness.ts IndexEntry). */
  mcpServer?: { id: string; url: string; command: string }
}

/** Its own port, away from the unit tests' 4350-4359, 4451 and mcp.spec.ts's 4471. */
const MCP_TEMPLATE_PORT = Number(process.env.E2E_MCP_TEMPLATE_PORT ?? 4472)

// The gallery's own index (what the site serves next to the app).
const index = JSON.parse(
  readFileSync(new URL('../public/templates/index.json', import.meta.url), 'utf8'),
) as {
  templates: TemplateEntry[]
}

/** Templates whose whole-run budget stops them (e2e/runBudget.spec.ts checks the stop itself). */
const STOPPED_BY_RUN_BUDGET = new Set(['budget-team'])

test.beforeEach(async ({ app }) => {
  await app.open()
})

test('the gallery lists at least six templates, each with its id', async ({ app }) => {
  await app.templates.open()
  const ids = await app.templates.ids()
  expect(ids.length).toBeGreaterThanOrEqual(6)
  expect(ids.sort()).toEqual(index.templates.map((t) => t.id).sort())
})

for (const entry of index.templates) {
  // Run below, against a server this spec starts.
  if (entry.mcpServer) continue
  const guarded = entry.tags.includes('guard')
  // A branching template runs one branch; the others are not taken and show as skipped.
  const branching = entry.tags.includes('branching')
  const runStopped = STOPPED_BY_RUN_BUDGET.has(entry.id)
  test(`template "${entry.id}" opens as a new flow and runs with the demo provider`, async ({
    app,
    page,
  }) => {
    const { templates, run, canvas, flows } = app
    await templates.open()
    const title = (await templates.item(entry.id).getByRole('heading').textContent()) ?? ''
    await templates.openTemplate(entry.id)
    await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(title)
    await expect(flows.current()).toContainText(title)
    const nodeCount = await canvas.nodes.count()
    expect(nodeCount).toBeGreaterThan(1)

    await run.start()
    await run.finished(45_000)
    // Notes are comments (they never run). A guard demo's agent or LLM ends "stopped" by design.
    const statuses = await canvas.nodes.evaluateAll((els) =>
      els
        .filter((el) => el.getAttribute('data-node-type') !== 'note')
        .map((el) => `${el.getAttribute('data-node-type')}:${el.getAttribute('data-status')}`),
    )
    const expected = (s: string): boolean =>
      s.endsWith(':success') ||
      (guarded && (s === 'agent:stopped' || s === 'llm:stopped')) ||
      (branching && s.endsWith(':skipped')) ||
      (runStopped && (s === 'agent:error' || s.endsWith(':skipped')))
    expect(
      statuses.filter((s) => !expected(s)),
      `node statuses: ${statuses.join(', ')}`,
    ).toEqual([])
    if (branching) expect(statuses.filter((s) => s.endsWith(':skipped')).length).toBeGreaterThan(0)
    const outputs = canvas.nodesOfType('output')
    expect(await outputs.count()).toBeGreaterThan(0)
    // A run its budget stopped never reaches its Output: the run panel says why instead.
    const outputStatus = runStopped ? 'skipped' : 'success'
    for (const output of await outputs.all())
      await expect(output).toHaveAttribute('data-status', outputStatus)
    if (runStopped) await expect(page.getByTestId('run-guard')).toHaveAttribute('data-level', 'trip')
    await expect(run.result).not.toBeEmpty()

    const trips = page.locator('[data-testid="guard-alert"][data-level="trip"]')
    if (guarded) await expect(trips).not.toHaveCount(0)
    else await expect(trips).toHaveCount(0)

    // No key was asked for and nothing failed (a budget stop is the run's outcome, not a failure).
    await expect(page.getByTestId('passphrase-dialog')).toHaveCount(0)
    await expect(app.settings.dialog).toHaveCount(0)
    await expect(app.errorBanner).toHaveCount(0)
  })
}

test.describe('templates that use a local MCP server', () => {
  // server-everything answers 400 to the optional GET event stream the MCP client opens (the
  // protocol allows a server to refuse it); nothing else may fail.
  test.use({
    allowedErrors:
      /HTTP 400 GET http:\/\/127\.0\.0\.1:\d+\/mcp$|status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/mcp\)/,
  })
  let everything: RunningServer | undefined
  test.beforeAll(async () => {
    if (index.templates.some((t) => t.mcpServer)) everything = await startEverything(MCP_TEMPLATE_PORT)
  })
  test.afterAll(async () => {
    await everything?.close()
  })

  for (const entry of index.templates.filter((t) => t.mcpServer)) {
    test(`template "${entry.id}" runs once its MCP server is added in settings`, async ({ app, page }) => {
      const server = entry.mcpServer as NonNullable<TemplateEntry['mcpServer']>
      const { templates, run, canvas, settings } = app
      // What the description asks of the person: the server under its id, at its URL (here the
      // spec's own port on loopback instead of 3001).
      await settings.open()
      await settings.tab('MCP servers')
      const tab = settings.dialog.getByTestId('mcp-servers')
      await tab.getByTestId('mcp-server-add').click()
      const form = settings.dialog.getByTestId('mcp-server-form')
      await form.getByTestId('mcp-server-name').fill('Everything')
      await form.getByTestId('mcp-server-id').fill(server.id)
      await form.getByTestId('mcp-server-url').fill(everything?.url ?? server.url)
      await form.getByTestId('mcp-server-save').click()
      await expect(tab.getByTestId('mcp-server-item')).toHaveCount(1)
      await settings.close()

      await templates.open()
      await expect(templates.item(entry.id)).toContainText(server.command)
      await templates.openTemplate(entry.id)
      await run.start()
      await run.finished(45_000)
      const statuses = await canvas.nodes.evaluateAll((els) =>
        els
          .filter((el) => el.getAttribute('data-node-type') !== 'note')
          .map((el) => `${el.getAttribute('data-node-id')}:${el.getAttribute('data-status')}`),
      )
      expect(statuses.filter((s) => !s.endsWith(':success'))).toEqual([])
      // The server's own reply reached the model as the call's observation.
      await expect(canvas.console('agent')).toContainText('Echo: Hello from Wardflow')
      await expect(run.result).not.toBeEmpty()
      await expect(page.getByTestId('passphrase-dialog')).toHaveCount(0)
      await expect(app.errorBanner).toHaveCount(0)
    })
  }
})
