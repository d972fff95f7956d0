/**
 * The template gallery's state: open or closed, the template list (filled by app/'s templates
 * service from public/templates/index.json), which template is being opened, and the last
 * failure as an i18n key so the message follows the language.
 */
import { createStore, useStore } from 'zustand'

/** One entry of public/templates/index.json. */
export interface TemplateSummary {
  id: string
  /** File name inside templates/, e.g. `stuck-agent.wardflow.json`. */
  file: string
  /** `templates:` catalogue keys; `name`/`description` are the English fallbacks. */
  nameKey: string
  descriptionKey: string
  name: string
  description: string
  /** Tag ids; their labels are `templates:tags.<tag>`. */
  tags: readonly string[]
  /** Shown first, marked "Start here". */
  featured: boolean
  /** A knowledge base the template searches, made from bundled documents when it opens. */
  knowledge?: { base: string; name: string; files: readonly string[] }
}

/** A failure worded by the UI: `templates:errors.<key>` with values. */
export interface GalleryError {
  key: 'index' | 'file' | 'invalid' | 'unknown' | 'save' | 'knowledge'
  values: Readonly<Record<string, string>>
}

export type GalleryStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface GalleryState {
  open: boolean
  status: GalleryStatus
  templates: readonly TemplateSummary[]
  error: GalleryError | null
  /** The id of the template being opened; the other Open buttons wait meanwhile. */
  opening: string | null
  show(): void
  hide(): void
  setLoading(): void
  setTemplates(templates: readonly TemplateSummary[]): void
  /** A failure to list the templates (the gallery offers to try again). */
  setListError(error: GalleryError): void
  /** A failure to open one template; the list stays usable. */
  setOpenError(error: GalleryError | null): void
  setOpening(id: string | null): void
}

export function createGalleryStore() {
  return createStore<GalleryState>()((set) => ({
    open: false,
    status: 'idle',
    templates: [],
    error: null,
    opening: null,
    show: () => set({ open: true, error: null }),
    hide: () => set({ open: false, error: null }),
    setLoading: () => set({ status: 'loading', error: null }),
    setTemplates: (templates) => set({ status: 'ready', templates, error: null }),
    setListError: (error) => set({ status: 'error', error }),
    setOpenError: (error) => set({ error }),
    setOpening: (opening) => set({ opening }),
  }))
}

export const galleryStore = createGalleryStore()

export function useGallery<T>(selector: (state: GalleryState) => T): T {
  return useStore(galleryStore, selector)
}
