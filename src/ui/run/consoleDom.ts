/**
 * Keeps a console's DOM in step with its lines without React re-creating anything: streamed
 * text is appended to the last text node (`appendData`), new lines are appended once, and only
 * a change in the past (the console was cut) rebuilds it. Every line is a text node, so nothing
 * a model, a tool or a server says is ever parsed as HTML.
 */
import type { ConsoleLine } from '../../store/runStore.ts'

export interface ConsoleDomOptions {
  /** Give guard lines `data-testid="guard-alert"` (the node body's console; not its inspector copy). */
  testIds: boolean
  /** Label of reasoning segments (shown through CSS, so it is not part of the text). */
  reasoningLabel: string
}

interface RenderedLine {
  line: ConsoleLine
  element: HTMLElement
  text: Text
}

function create(line: ConsoleLine, options: ConsoleDomOptions): RenderedLine {
  const inline = line.kind === 'output'
  const element = document.createElement(inline ? 'span' : 'div')
  element.className = `wf-run-console__line wf-run-console__line--${line.kind}`
  if (line.kind === 'reasoning') element.dataset['label'] = options.reasoningLabel
  if (line.kind === 'guard') {
    element.className += ` wf-run-console__line--${line.level === 'trip' ? 'trip' : 'hint'}`
    if (options.testIds) element.dataset['testid'] = 'guard-alert'
    if (line.layer) element.dataset['layer'] = line.layer
    if (line.level) element.dataset['level'] = line.level
  }
  const text = document.createTextNode(line.text)
  element.appendChild(text)
  return { line, element, text }
}

/** The DOM side of one console; `sync` is called after every store update that touched it. */
export class ConsoleDom {
  private rendered: RenderedLine[] = []

  constructor(
    private readonly root: HTMLElement,
    private readonly options: ConsoleDomOptions,
  ) {}

  sync(lines: readonly ConsoleLine[]): void {
    const rendered = this.rendered
    const shared = Math.min(rendered.length, lines.length)
    let keep = 0
    while (keep < shared && (rendered[keep] as RenderedLine).line === lines[keep]) keep += 1
    if (keep < shared) {
      // The common case while streaming: the last segment grew. Append only the new text.
      const old = rendered[keep] as RenderedLine
      const line = lines[keep] as ConsoleLine
      if (
        old.line.kind === line.kind &&
        line.kind !== 'guard' &&
        line.text.length >= old.line.text.length &&
        line.text.startsWith(old.line.text)
      ) {
        if (line.text.length > old.line.text.length)
          old.text.appendData(line.text.slice(old.line.text.length))
        old.line = line
        keep += 1
      }
    }
    for (let i = rendered.length - 1; i >= keep; i -= 1) (rendered[i] as RenderedLine).element.remove()
    rendered.length = Math.min(rendered.length, keep)
    if (keep >= lines.length) return
    const fragment = document.createDocumentFragment()
    for (let i = keep; i < lines.length; i += 1) {
      const next = create(lines[i] as ConsoleLine, this.options)
      fragment.appendChild(next.element)
      rendered.push(next)
    }
    this.root.appendChild(fragment)
  }

  clear(): void {
    for (const r of this.rendered) r.element.remove()
    this.rendered = []
  }
}
