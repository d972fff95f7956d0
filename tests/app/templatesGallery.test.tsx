// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { noopFlowsService, ServicesContext, type AppServices } from '../../src/ui/services.ts'
import { changeLanguage, initI18n, loadNamespaces, TEMPLATES_NAMESPACE } from '../../src/i18n/index.ts'
import { TemplatesButton } from '../../src/ui/templates/TemplatesButton.tsx'
import { TemplatesHost } from '../../src/ui/templates/TemplatesHost.tsx'
import { galleryStore } from '../../src/store/galleryStore.ts'
import { readIndex } from '../templates/harness.ts'
import { templatesHarness, type Harness } from './templatesSupport.ts'

beforeAll(async () => {
  await initI18n('en')
  // The app loads the gallery's English text with the templates area (app/areas.ts).
  await loadNamespaces([TEMPLATES_NAMESPACE])
})

const harnesses: Harness[] = []
afterEach(async () => {
  act(() => galleryStore.setState({ open: false, status: 'idle', templates: [], error: null, opening: null }))
  await changeLanguage('en')
  for (const h of harnesses.splice(0)) {
    h.db.close()
    await h.db.delete()
  }
})

async function mount(options: Parameters<typeof templatesHarness>[0] = {}): Promise<Harness> {
  const h = await templatesHarness({ ...options, gallery: galleryStore })
  harnesses.push(h)
  const services: AppServices = { flows: noopFlowsService, templates: h.service }
  render(
    <ServicesContext.Provider value={services}>
      <TemplatesButton />
      <TemplatesHost />
    </ServicesContext.Provider>,
  )
  return h
}

describe('template gallery dialog', () => {
  it('opens from the toolbar button and lists every template with its name, description and tags', async () => {
    await mount()
    expect(screen.queryByTestId('template-gallery')).toBeNull()
    fireEvent.click(screen.getByTestId('open-templates'))
    const dialog = await screen.findByTestId('template-gallery')
    expect(dialog).toHaveAttribute('role', 'dialog')
    expect(within(dialog).getByRole('heading', { name: 'Templates' })).toBeInTheDocument()
    const items = await within(dialog).findAllByTestId('template-item')
    const index = readIndex().templates
    expect(items.map((el) => el.getAttribute('data-template-id')).sort()).toEqual(
      index.map((t) => t.id).sort(),
    )
    const stuck = items[0] as HTMLElement
    expect(stuck).toHaveAttribute('data-template-id', 'stuck-agent')
    expect(within(stuck).getByRole('heading', { name: 'See the loop breaker' })).toBeInTheDocument()
    expect(within(stuck).getByText('Start here')).toBeInTheDocument()
    expect(within(stuck).getByText(/trips at the 3rd/)).toBeInTheDocument()
    expect(within(stuck).getByRole('list', { name: 'Tags' })).toHaveTextContent('Guard')
  })

  it('Open creates the flow from that template and closes the dialog', async () => {
    const h = await mount()
    act(() => h.service.openGallery())
    const dialog = await screen.findByTestId('template-gallery')
    const item = (await within(dialog).findAllByTestId('template-item')).find(
      (el) => el.getAttribute('data-template-id') === 'research-agent',
    ) as HTMLElement
    fireEvent.click(within(item).getByRole('button', { name: 'Open template “Research agent (HTTP tools)”' }))
    await waitFor(() => expect(screen.queryByTestId('template-gallery')).toBeNull())
    expect(h.opened.map((d) => d.metadata.name)).toEqual(['Research agent (HTTP tools)'])
  })

  it('shows why the list could not load and loads it on Try again', async () => {
    let down = true
    await mount({
      fetch: (site) => async (url, init) =>
        down ? Promise.reject(new TypeError('Failed to fetch')) : site(url, init),
    })
    fireEvent.click(screen.getByTestId('open-templates'))
    const alert = await within(await screen.findByTestId('template-gallery')).findByRole('alert')
    expect(alert).toHaveTextContent('The template list could not be loaded (Failed to fetch).')
    down = false
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findAllByTestId('template-item')).toHaveLength(readIndex().templates.length)
  })

  it('speaks Chinese when the UI does, with the same ids', async () => {
    await changeLanguage('zh-CN')
    await mount({ lang: 'zh-CN' })
    fireEvent.click(screen.getByTestId('open-templates'))
    const dialog = await screen.findByTestId('template-gallery')
    expect(within(dialog).getByRole('heading', { name: '示例工作流' })).toBeInTheDocument()
    const items = await within(dialog).findAllByTestId('template-item')
    expect(
      within(items[0] as HTMLElement).getByRole('heading', { name: '观看循环断路器' }),
    ).toBeInTheDocument()
    expect(
      within(items[0] as HTMLElement).getByRole('button', { name: '打开示例“观看循环断路器”' }),
    ).toBeEnabled()
  })
})
