/**
 * Issue 23, item 6: a 1 MB input referenced 100 times made a 100 MB prompt that froze the tab for
 * a minute. Now the field fails at once with a message naming the node and the field, and the
 * page keeps drawing frames.
 */
import { expect, test } from './support/fixtures.ts'
import { jsonFile } from './support/files.ts'
import { longestFrameGap, readProbes, startProbes } from './support/pageProbes.ts'

const ONE_MB = 1_000_000

function bigFlow(): unknown {
  const node = (id: string, type: string, x: number, config: Record<string, unknown>) => ({
    id,
    type,
    position: { x, y: 0 },
    data: { label: id, config },
  })
  const edge = (source: string, target: string) => ({
    id: `e_${source}_${target}`,
    source,
    target,
    sourceHandle: 'out',
    targetHandle: 'in',
  })
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: 'big-template-flow',
      name: 'A megabyte, a hundred times',
      description: '',
      tags: [],
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
    },
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes: [
      node('big', 'input', 0, { values: { text: 'x'.repeat(ONE_MB) } }),
      node('tpl', 'template', 320, { template: '{{big.text}}\n'.repeat(100) }),
      node('out', 'output', 640, { values: { answer: '{{tpl.text}}' } }),
    ],
    edges: [edge('big', 'tpl'), edge('tpl', 'out')],
  }
}

test('a 1 MB input referenced 100 times fails fast, naming the field, and the page stays responsive', async ({
  app,
  page,
}) => {
  await app.open()
  await app.importWorkflow(jsonFile('big.wardflow.json', bigFlow()))
  await expect(app.canvas.node('tpl')).toBeVisible()
  await startProbes(page, 'tpl')
  const started = Date.now()
  await app.run.start()
  await app.run.expectStatus('tpl', 'error', 15_000)
  const elapsedMs = Date.now() - started
  await expect(app.run.console('tpl')).toContainText(
    'The field "template" of "tpl" would be 100,000,100 characters',
  )
  await expect(app.run.console('tpl')).toContainText('over the limit of 8,000,000')
  await app.run.expectStatus('out', 'skipped')
  await app.run.finished()
  // Before: a minute of a frozen tab building 100 MB. Now a few seconds at most, with frames.
  expect(elapsedMs).toBeLessThan(10_000)
  const probes = await readProbes(page)
  const end = probes.statuses.find((s) => s.status === 'error')?.at ?? 0
  const begin = probes.statuses[0]?.at ?? 0
  // Frames kept coming from the run's start to the node's failure.
  expect(longestFrameGap(probes.frames, begin, end)).toBeLessThan(2_000)
  // The run's record was saved: no banner says otherwise, and the page answers at once.
  await expect(app.errorBanner).toBeHidden()
  const asked = Date.now()
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  expect(Date.now() - asked).toBeLessThan(1_000)
})
