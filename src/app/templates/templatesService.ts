/**
 * The templates service: lists the bundled templates (public/templates/index.json) for the
 * gallery, and opens one as a NEW flow: fetched next to the app (so it works under any
 * sub-path and offline after load), read by storage's workflow parser like any imported file,
 * given a fresh id, its name, labels and notes in the UI language, saved, then opened.
 */
import type { StoreApi } from 'zustand'
import { z } from 'zod'
import { toFlowError, type FetchLike, type FlowDocument } from '../../engine/index.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import { asNewFlow, parseWorkflowText } from '../../storage/index.ts'
import type { NoticeState } from '../../store/noticeStore.ts'
import type { GalleryError, GalleryState, TemplateSummary } from '../../store/galleryStore.ts'
import type { TemplatesService } from '../../ui/services.ts'

/** The template behind "See the loop breaker". */
export const LOOP_BREAKER_TEMPLATE_ID = 'stuck-agent'

const entrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  // A bare file name: an index can never point outside templates/.
  file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.wardflow\.json$/),
  nameKey: z.string().default(''),
  descriptionKey: z.string().default(''),
  name: z.string().min(1),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  featured: z.boolean().default(false),
  /**
   * A knowledge base the template searches, made from bundled documents (templates/knowledge/…)
   * when the template opens and no base of that id exists yet.
   */
  knowledge: z
    .object({
      base: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      name: z.string().min(1),
      files: z
        .array(z.string().regex(/^knowledge\/[A-Za-z0-9._-]{1,64}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/))
        .min(1),
    })
    .optional(),
})

/** A template's bundled knowledge base (see `knowledge` in the index). */
export interface TemplateKnowledge {
  base: string
  name: string
  files: readonly string[]
}

const indexSchema = z.object({
  format: z.literal('wardflow.templates'),
  version: z.literal(1),
  templates: z.array(entrySchema),
})

export interface TemplatesServiceDeps {
  /** Absolute URL of the site's root (ends with '/'); templates/ is resolved against it. */
  siteUrl: string
  fetch: FetchLike
  gallery: StoreApi<GalleryState>
  notices: StoreApi<NoticeState>
  /** Saves `doc` (already a new flow with a fresh id) and opens it. */
  openNewFlow(doc: FlowDocument): Promise<void>
  newId(): string
  /** ISO-8601 time for createdAt/updatedAt. */
  now(): string
  /** `templates:` catalogue text in the UI language; undefined when that language has none. */
  translate(key: string, values?: Record<string, string>): string | undefined
  /**
   * Makes the template's knowledge base from its bundled documents unless a base with that id
   * exists; `fetchFile` reads a file under templates/. Absent: templates open without their base.
   */
  ensureKnowledge?(knowledge: TemplateKnowledge, fetchFile: (file: string) => Promise<string>): Promise<void>
}

export interface AppTemplatesService extends TemplatesService {
  /** Opens template `id` as a new flow; resolves true once it is open. Never rejects. */
  openTemplate(id: string): Promise<boolean>
  /** The template list (cached after the first success). */
  list(): Promise<readonly TemplateSummary[]>
}

class TemplateFailure extends Error {
  constructor(readonly detail: GalleryError) {
    super(detail.key)
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function createTemplatesService(deps: TemplatesServiceDeps): AppTemplatesService {
  const gallery = (): GalleryState => deps.gallery.getState()
  let listing: Promise<readonly TemplateSummary[]> | null = null

  async function fetchText(file: string): Promise<string> {
    const response = await deps.fetch(new URL(`templates/${file}`, deps.siteUrl).href)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return response.text()
  }

  async function loadList(): Promise<readonly TemplateSummary[]> {
    let json: unknown
    try {
      json = JSON.parse(await fetchText('index.json')) as unknown
    } catch (error) {
      throw new TemplateFailure({ key: 'index', values: { reason: reasonOf(error) } })
    }
    const parsed = indexSchema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const reason = `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unreadable'}`
      throw new TemplateFailure({ key: 'index', values: { reason } })
    }
    const all = parsed.data.templates
    return [...all.filter((t) => t.featured), ...all.filter((t) => !t.featured)]
  }

  function list(): Promise<readonly TemplateSummary[]> {
    listing ??= loadList()
    // A failure is not cached: the next attempt (Try again) fetches anew.
    listing.catch(() => {
      listing = null
    })
    return listing
  }

  const text = (key: string, fallback: string): string =>
    key === '' ? fallback : (deps.translate(key) ?? fallback)

  /** The flow a person gets: fresh id and times, names and notes in their language. */
  function localize(doc: FlowDocument, entry: TemplateSummary): FlowDocument {
    const fresh = asNewFlow(doc, deps.newId(), deps.now())
    fresh.metadata.name = text(entry.nameKey, fresh.metadata.name)
    fresh.metadata.description = text(entry.descriptionKey, fresh.metadata.description)
    for (const node of fresh.nodes) {
      node.data.label = deps.translate(`labels.${entry.id}.${node.id}`) ?? node.data.label
      const note =
        nodeCatalog.role(node.type) === 'annotation'
          ? deps.translate(`notes.${entry.id}.${node.id}`)
          : undefined
      if (note !== undefined) node.data.config = { ...node.data.config, text: note }
    }
    return fresh
  }

  async function load(id: string): Promise<{ doc: FlowDocument; entry: TemplateSummary }> {
    const entry = (await list()).find((t) => t.id === id)
    if (!entry) throw new TemplateFailure({ key: 'unknown', values: { id } })
    const name = text(entry.nameKey, entry.name)
    let source: string
    try {
      source = await fetchText(entry.file)
    } catch (error) {
      throw new TemplateFailure({ key: 'file', values: { name, reason: reasonOf(error) } })
    }
    const parsed = parseWorkflowText(source)
    if (!parsed.ok) {
      const first = parsed.problems[0]
      const reason = first ? `${first.path === '' ? '' : `${first.path}: `}${first.message}` : ''
      throw new TemplateFailure({ key: 'invalid', values: { name, reason } })
    }
    return { doc: localize(parsed.doc, entry), entry }
  }

  function report(failure: GalleryError): void {
    if (gallery().open) {
      gallery().setOpenError(failure)
      return
    }
    const message = deps.translate(`errors.${failure.key}`, { ...failure.values }) ?? failure.key
    deps.notices.getState().showError({ code: 'TEMPLATE_UNAVAILABLE', message })
  }

  async function openTemplate(id: string): Promise<boolean> {
    // One template at a time: a double click must not create two flows.
    if (gallery().opening !== null) return false
    gallery().setOpening(id)
    gallery().setOpenError(null)
    try {
      const { doc, entry } = await load(id)
      if (entry.knowledge !== undefined && deps.ensureKnowledge !== undefined) {
        const name = text(entry.nameKey, entry.name)
        try {
          await deps.ensureKnowledge(entry.knowledge, fetchText)
        } catch (error) {
          throw new TemplateFailure({ key: 'knowledge', values: { name, reason: reasonOf(error) } })
        }
      }
      try {
        await deps.openNewFlow(doc)
      } catch (error) {
        const reason = toFlowError(error, 'STORAGE_FAILED').message
        throw new TemplateFailure({ key: 'save', values: { name: doc.metadata.name, reason } })
      }
      gallery().hide()
      return true
    } catch (error) {
      report(
        error instanceof TemplateFailure
          ? error.detail
          : { key: 'file', values: { name: id, reason: reasonOf(error) } },
      )
      return false
    } finally {
      gallery().setOpening(null)
    }
  }

  async function refresh(): Promise<void> {
    if (gallery().status === 'ready') return
    gallery().setLoading()
    try {
      gallery().setTemplates(await list())
    } catch (error) {
      const detail: GalleryError =
        error instanceof TemplateFailure
          ? error.detail
          : { key: 'index', values: { reason: reasonOf(error) } }
      gallery().setListError(detail)
    }
  }

  return {
    openGallery() {
      gallery().show()
      void refresh()
    },
    openLoopBreaker() {
      void openTemplate(LOOP_BREAKER_TEMPLATE_ID)
    },
    openTemplate,
    list,
  }
}
