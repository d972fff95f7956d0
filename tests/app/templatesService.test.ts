import { afterEach, describe, expect, it } from 'vitest'
import type { FlowDocument } from '../../src/engine/index.ts'
import { loadTemplate, readIndex, SITE_BASE } from '../templates/harness.ts'
import { templatesHarness, type Harness } from './templatesSupport.ts'

const harnesses: Harness[] = []
afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    h.db.close()
    await h.db.delete()
  }
})

async function harness(options: Parameters<typeof templatesHarness>[0] = {}): Promise<Harness> {
  const h = await templatesHarness(options)
  harnesses.push(h)
  return h
}

/** Waits until the gallery left its loading state. */
async function settled(h: Harness): Promise<void> {
  for (let i = 0; i < 200 && ['idle', 'loading'].includes(h.gallery.getState().status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

function withoutIdentity(doc: FlowDocument) {
  return { nodes: doc.nodes.map((n) => ({ ...n, data: { config: n.data.config } })), edges: doc.edges }
}

describe('templates service: the gallery list', () => {
  it('opens the gallery and lists the index with the featured template first', async () => {
    const h = await harness()
    h.service.openGallery()
    expect(h.gallery.getState().open).toBe(true)
    await settled(h)
    const state = h.gallery.getState()
    expect(state.status).toBe('ready')
    const ids = readIndex().templates.map((t) => t.id)
    expect(state.templates.map((t) => t.id).sort()).toEqual([...ids].sort())
    expect(state.templates[0]).toMatchObject({ id: 'stuck-agent', featured: true })
    // Fetched next to the app, under its sub-path.
    expect(h.requests).toEqual([`GET ${SITE_BASE}templates/index.json`])
  })

  it('reports a list that cannot be loaded, and Try again (openGallery) loads it once it is back', async () => {
    let down = true
    const h = await harness({
      fetch: (site) => async (url, init) => (down ? new Response('gone', { status: 503 }) : site(url, init)),
    })
    h.service.openGallery()
    await settled(h)
    expect(h.gallery.getState()).toMatchObject({
      status: 'error',
      error: { key: 'index', values: { reason: 'HTTP 503' } },
    })
    down = false
    h.service.openGallery()
    await settled(h)
    expect(h.gallery.getState()).toMatchObject({ status: 'ready', error: null })
  })

  it('refuses an index entry that points outside templates/', async () => {
    const h = await harness({
      fetch: (site) => async (url, init) =>
        url.endsWith('index.json')
          ? new Response(
              JSON.stringify({
                format: 'wardflow.templates',
                version: 1,
                templates: [{ id: 'evil', file: '../secrets.wardflow.json', name: 'Evil' }],
              }),
            )
          : site(url, init),
    })
    h.service.openGallery()
    await settled(h)
    expect(h.gallery.getState()).toMatchObject({ status: 'error', error: { key: 'index' } })
    expect(h.requests).toEqual([])
  })
})

describe('templates service: opening a template', () => {
  it('creates a NEW flow from the template (fresh id and times, same graph), saves it and closes the gallery', async () => {
    const h = await harness()
    h.service.openGallery()
    expect(await h.service.openTemplate('stuck-agent')).toBe(true)
    expect(h.opened).toHaveLength(1)
    const doc = h.opened[0] as FlowDocument
    const template = loadTemplate('stuck-agent.wardflow.json')
    expect(doc.metadata).toMatchObject({
      id: 'flow_new_1',
      name: 'See the loop breaker',
      createdAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:00:00.000Z',
    })
    expect(doc.metadata.id).not.toBe(template.metadata.id)
    expect(withoutIdentity(doc)).toEqual(withoutIdentity(template))
    expect(await h.load(doc.metadata.id)).toEqual(doc)
    expect(h.gallery.getState()).toMatchObject({ open: false, opening: null, error: null })
  })

  it('opens the same template twice as two separate flows', async () => {
    const h = await harness()
    await h.service.openTemplate('js-transform')
    await h.service.openTemplate('js-transform')
    expect(h.opened).toHaveLength(2)
    expect(new Set(h.opened.map((d) => d.metadata.id)).size).toBe(2)
    for (const doc of h.opened) expect(await h.load(doc.metadata.id)).toEqual(doc)
  })

  it('creates only one flow when Open is clicked twice in a row', async () => {
    const h = await harness()
    const [first, second] = await Promise.all([
      h.service.openTemplate('llm-chain'),
      h.service.openTemplate('llm-chain'),
    ])
    expect([first, second]).toEqual([true, false])
    expect(h.opened).toHaveLength(1)
  })

  it('opens the loop breaker in one call, without the gallery', async () => {
    const h = await harness()
    h.service.openLoopBreaker()
    for (let i = 0; i < 200 && h.opened.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    expect(h.opened.map((d) => d.metadata.name)).toEqual(['See the loop breaker'])
    expect(h.opened[0]?.nodes.some((n) => n.type === 'agent')).toBe(true)
    expect(h.gallery.getState().open).toBe(false)
  })

  it('writes the flow name, node labels and the note in the UI language (zh-CN)', async () => {
    const h = await harness({ lang: 'zh-CN' })
    await h.service.openTemplate('stuck-agent')
    const doc = h.opened[0] as FlowDocument
    const template = loadTemplate('stuck-agent.wardflow.json')
    expect(doc.metadata.name).toBe('观看循环断路器')
    expect(doc.nodes.find((n) => n.id === 'agent')?.data.label).toBe('订单智能体（会卡住）')
    expect(String(doc.nodes.find((n) => n.type === 'note')?.data.config['text'])).toContain('循环断路器熔断')
    // Only text changed: the runnable parts are the template's.
    const agent = (d: FlowDocument) => d.nodes.find((n) => n.id === 'agent')?.data.config
    expect(agent(doc)).toEqual(agent(template))
    expect(doc.edges).toEqual(template.edges)
  })

  it('keeps the English text of the file in English', async () => {
    const h = await harness({ lang: 'en' })
    await h.service.openTemplate('stuck-agent')
    const template = loadTemplate('stuck-agent.wardflow.json')
    expect(h.opened[0]?.nodes.map((n) => n.data)).toEqual(template.nodes.map((n) => n.data))
  })

  it('shows a refused template in the gallery with its first problem, and creates nothing', async () => {
    const h = await harness({
      fetch: (site) => async (url, init) =>
        url.endsWith('budget-burner.wardflow.json')
          ? new Response(
              JSON.stringify({
                format: 'wardflow.workflow',
                version: 1,
                metadata: {},
                nodes: [{}],
                edges: [],
              }),
            )
          : site(url, init),
    })
    h.service.openGallery()
    expect(await h.service.openTemplate('budget-burner')).toBe(false)
    const state = h.gallery.getState()
    expect(state.open).toBe(true)
    expect(state.error).toMatchObject({ key: 'invalid', values: { name: 'Budget burner' } })
    // The omitted metadata is filled in (storage/restore/omitted.ts); the node without an id is not.
    expect(state.error?.values['reason']).toMatch(/^nodes\[0\]\.id: /)
    expect(h.opened).toEqual([])
  })

  it('reports a failed loop breaker in the error banner (the gallery is closed)', async () => {
    const h = await harness({
      fetch: (site) => async (url, init) =>
        url.endsWith('stuck-agent.wardflow.json') ? new Response('nope', { status: 404 }) : site(url, init),
    })
    h.service.openLoopBreaker()
    for (let i = 0; i < 200 && h.notices.getState().banner === null; i++)
      await new Promise((r) => setTimeout(r, 5))
    expect(h.notices.getState().banner).toEqual({
      code: 'TEMPLATE_UNAVAILABLE',
      message: 'The template “See the loop breaker” could not be loaded (HTTP 404).',
    })
    expect(h.opened).toEqual([])
  })

  it('says so when a template id is not in the index', async () => {
    const h = await harness()
    h.service.openGallery()
    expect(await h.service.openTemplate('no-such-template')).toBe(false)
    expect(h.gallery.getState().error).toEqual({ key: 'unknown', values: { id: 'no-such-template' } })
  })
})
