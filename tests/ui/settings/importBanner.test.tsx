// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createWorkflowIoService } from '../../../src/app/files/importExportService.ts'
import { exportWorkflowText, listFlows, saveFlow } from '../../../src/storage/index.ts'
import { flowStore, selectDocument } from '../../../src/store/flowStore.ts'
import { ErrorBanner } from '../../../src/ui/kit/ErrorBanner.tsx'
import { ImportHost } from '../../../src/ui/import/ImportHost.tsx'
import { fakeFlows, resetStores } from '../../app/settingsSupport.ts'
import { freshDb, sampleFlow } from '../../storage/support.ts'
import { Providers, useLanguage } from './support.tsx'

beforeEach(async () => {
  resetStores()
  await useLanguage('en')
})

async function setup() {
  const db = await freshDb()
  const flows = fakeFlows()
  const io = createWorkflowIoService({ db, flows, download: () => {} })
  render(
    <Providers services={{ flows, import: io, export: io }}>
      <ErrorBanner />
      <ImportHost />
    </Providers>,
  )
  return { db, flows, io }
}

describe('workflow import in the UI', () => {
  it('a refused file shows each problem with its JSON path in the error banner and changes nothing', async () => {
    const { db, flows, io } = await setup()
    await saveFlow(db, sampleFlow('flow_a', 'Mine'))
    flowStore.getState().actions.load(sampleFlow('flow_a', 'Mine'))
    const storedBefore = JSON.stringify(await db.flows.toArray())
    const openBefore = selectDocument(flowStore.getState())

    const file = JSON.parse(exportWorkflowText(sampleFlow('flow_x', 'Broken')))
    file.nodes[2].data.config.temperature = 'hot'
    file.nodes[3].data.config.values = 'not an object'
    await act(() => io.importFile(new File([JSON.stringify(file)], 'broken.wardflow.json')))

    const banner = await screen.findByRole('alert')
    expect(banner).toHaveAttribute('data-testid', 'error-banner')
    expect(banner).toHaveAttribute('data-code', 'IMPORT_INVALID')
    // The banner names the refused file (not only the code's generic text).
    expect(banner).toHaveTextContent(
      'broken.wardflow.json was not imported; nothing was changed. 2 problems:',
    )
    const problems = within(banner)
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    expect(problems).toEqual([
      expect.stringMatching(/^nodes\[2\]\.data\.config\.temperature: /),
      expect.stringMatching(/^nodes\[3\]\.data\.config\.values: /),
    ])
    expect(JSON.stringify(await db.flows.toArray())).toBe(storedBefore)
    expect(selectDocument(flowStore.getState())).toEqual(openBefore)
    expect(flows.opened).toEqual([])
  })

  it('an accepted file clears the banner and opens as a new flow', async () => {
    const { db, flows, io } = await setup()
    await act(() => io.importFile(new File(['{not json'], 'bad.json')))
    await screen.findByTestId('error-banner')
    await act(() =>
      io.importFile(new File([exportWorkflowText(sampleFlow('flow_x', 'Good'))], 'good.wardflow.json')),
    )
    await waitFor(() => expect(screen.queryByTestId('error-banner')).toBeNull())
    const saved = await listFlows(db)
    expect(saved).toHaveLength(1)
    expect(saved[0]?.id).not.toBe('flow_x')
    expect(flows.opened).toEqual([saved[0]?.id])
  })

  it('asks before replacing a saved flow with the same id; cancel keeps it', async () => {
    const { db, io } = await setup()
    await saveFlow(db, sampleFlow('flow_a', 'Mine'))
    const pending = io.importFile(
      new File([exportWorkflowText(sampleFlow('flow_a', 'Theirs'))], 'theirs.wardflow.json'),
    )
    const dialog = await screen.findByRole('dialog', { name: 'This flow is already saved' })
    expect(dialog).toHaveTextContent('“Theirs”')
    expect(dialog).toHaveTextContent('“Mine”')
    expect(within(dialog).getByRole('button', { name: 'Import as copy' })).toHaveFocus()
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    await act(() => pending)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect((await listFlows(db)).map((f) => f.name)).toEqual(['Mine'])
  })

  it('shows a short report after a PatchCat import, naming the placeholders', async () => {
    const { io } = await setup()
    const patchcat = {
      version: '1.0.0',
      metadata: { id: 'pc', name: 'Routing' },
      nodes: [
        { id: 'in', type: 'input', position: { x: 0, y: 0 }, data: { label: 'In', inputs: { q: 'hi' } } },
        { id: 'agg', type: 'webhook', position: { x: 200, y: 0 }, data: { label: 'Agg' } },
      ],
      edges: [{ id: 'e1', source: 'in', target: 'agg' }],
    }
    await act(() => io.importFile(new File([JSON.stringify(patchcat)], 'routing.json')))
    const report = await screen.findByTestId('import-report')
    expect(report).toHaveTextContent('Imported “Routing” from PatchCat')
    expect(within(report).getByTestId('import-unsupported')).toHaveTextContent('agg (webhook)')
  })
})
