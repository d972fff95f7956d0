/**
 * Workflow files an attacker could hand a person: node ids that are Object.prototype names
 * (`constructor`, `__proto__`, `valueOf`, ...) must open, run, reopen from the history, export and
 * survive a reload like any other ids; a file with 20,000 copies of one connection opens at once
 * with the copies folded.
 */
import { jsonFile } from './support/files.ts'
import { expect, test } from './support/fixtures.ts'

const STAMP = '2026-12-01T00:00:00.000Z'

function workflow(id: string, name: string, nodes: unknown[], edges: unknown[]): unknown {
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: { id, name, description: '', tags: [], createdAt: STAMP, updatedAt: STAMP },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges,
  }
}

function node(id: string, type: string, x: number, config: Record<string, unknown>): unknown {
  return {
    id,
    type,
    position: { x, y: 40 },
    data: { label: `${type} ${id}`, config: { configVersion: 1, ...config } },
  }
}

function edge(source: string, target: string, id = `e-${source}-${target}`): unknown {
  return { id, source, target, sourceHandle: 'out', targetHandle: 'in' }
}

/** Input -> Template -> Code (sandbox) -> LLM (demo provider) -> Output, all with prototype names. */
const PROTOTYPE_FLOW = workflow(
  'hostile-ids',
  'Prototype ids',
  [
    node('constructor', 'input', 0, { values: { q: 'hello' } }),
    node('__proto__', 'template', 300, { template: '{{constructor.q}} world' }),
    node('valueOf', 'code', 600, {
      code: 'return Object.keys(inputs).join(",") + " saw " + inputs.__proto__.text',
    }),
    node('hasOwnProperty', 'llm', 900, {
      provider: '',
      model: '',
      prompt: '{{valueOf.result}}',
      stream: true,
    }),
    node('toString', 'output', 1200, { values: { answer: '{{valueOf.result}}' } }),
  ],
  [
    edge('constructor', '__proto__'),
    edge('__proto__', 'valueOf'),
    edge('valueOf', 'hasOwnProperty'),
    edge('hasOwnProperty', 'toString'),
  ],
)
const IDS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']

test('a flow whose node ids are Object.prototype names imports, runs, reopens from the history, exports and survives a reload', async ({
  app,
}) => {
  const { canvas, run, flows } = app
  await app.open()
  await app.importWorkflow(jsonFile('prototype-ids.wardflow.json', PROTOTYPE_FLOW))
  await expect(flows.current()).toContainText('Prototype ids')
  await expect(canvas.nodes).toHaveCount(IDS.length)
  expect(await canvas.nodeIds()).toEqual(IDS)
  await expect(canvas.edges).toHaveCount(4)

  await run.start()
  await run.finished()
  for (const id of IDS) await run.expectStatus(id, 'success')
  // The Code node saw its one input under the key `__proto__` (it used to vanish).
  await expect(canvas.console('valueOf')).toContainText('__proto__ saw hello world')
  await expect(run.result).toContainText('__proto__ saw hello world')

  // The run record is saved, and after a reload (the flow reopens) it reopens from the history
  // with the same statuses and consoles.
  const history = app.page.getByRole('tab', { name: 'History' })
  const records = app.page.getByTestId('run-history-item')
  await history.click()
  await expect(records).toHaveCount(1)
  await app.reload()
  expect(await canvas.nodeIds()).toEqual(IDS)
  await history.click()
  await expect(records).toHaveCount(1)
  await records.first().getByRole('button').click()
  await expect(app.page.getByTestId('run-past-view')).toBeVisible()
  for (const id of IDS) await run.expectStatus(id, 'success')
  await expect(canvas.console('valueOf')).toContainText('__proto__ saw hello world')
  await app.page.getByTestId('run-back-to-live').click()

  // Export keeps every id and connection.
  const exported = JSON.parse((await app.exportWorkflow()).text) as {
    nodes: Array<{ id: string }>
    edges: Array<{ source: string; target: string }>
  }
  expect(exported.nodes.map((n) => n.id).sort()).toEqual(IDS)
  expect(exported.edges.map((e) => `${e.source}>${e.target}`)).toEqual([
    'constructor>__proto__',
    '__proto__>valueOf',
    'valueOf>hasOwnProperty',
    'hasOwnProperty>toString',
  ])
})

test('a file with 20,000 copies of one connection opens with one connection, says so, and reopens', async ({
  app,
}) => {
  const { canvas, flows } = app
  await app.open()
  const copies = Array.from({ length: 20_000 }, (_, k) => edge('ask', 'show', `copy-${k}`))
  const file = workflow(
    'duplicate-edges',
    'Duplicate edges',
    [
      node('ask', 'input', 0, { values: { q: 'hi' } }),
      node('show', 'output', 300, { values: { a: '{{ask.q}}' } }),
    ],
    copies,
  )
  await app.importWorkflow(jsonFile('duplicates.wardflow.json', file))
  await expect(flows.current()).toContainText('Duplicate edges', { timeout: 15_000 })
  await expect(canvas.nodes).toHaveCount(2)
  await expect(canvas.edges).toHaveCount(1)
  await expect(app.page.getByTestId('import-report')).toContainText('19999 duplicate connections')
  await app.reload()
  await expect(canvas.nodes).toHaveCount(2)
  await expect(canvas.edges).toHaveCount(1)
})
