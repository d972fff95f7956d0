/**
 * A node's output fields: as text (the default) or, on request, as Markdown rendered through
 * the sanitiser (loaded lazily). Non-string values are shown as JSON text.
 */
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { splitIntoBlocks } from './console/consoleDom.ts'
import { formatValue } from './format.ts'

export type OutputMode = 'text' | 'markdown'

type Renderer = (text: string) => string
let renderer: Promise<Renderer> | undefined

function loadRenderer(): Promise<Renderer> {
  renderer ??= import('./safeMarkdown.ts').then((m) => m.renderSafeMarkdown)
  renderer.catch(() => {
    renderer = undefined
  })
  return renderer
}

function MarkdownBlock({ text }: { text: string }) {
  const [html, setHtml] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    loadRenderer().then(
      (render) => {
        if (live) setHtml(render(text))
      },
      () => {
        if (live) setHtml(null)
      },
    )
    return () => {
      live = false
    }
  }, [text])
  if (html === null) return <pre className="wf-run-output__text">{text}</pre>
  // Sanitised by DOMPurify in safeMarkdown.ts: no scripts, handlers, media or forms survive.
  return <div className="wf-run-output__markdown" dangerouslySetInnerHTML={{ __html: html }} />
}

/** Text in settled blocks (run.css), so a 100,000-character reply does not cost one huge layout. */
export function LongText({ text }: { text: string }) {
  const blocks = useMemo(() => splitIntoBlocks(text), [text])
  return (
    <div className="wf-run-output__text">
      {blocks.map((block, i) => (
        <div key={i} className="wf-run-console__block" data-settled="">
          {block}
        </div>
      ))}
    </div>
  )
}

export interface OutputViewProps {
  output: Readonly<Record<string, unknown>>
  mode: OutputMode
}

export function OutputView({ output, mode }: OutputViewProps) {
  const entries = Object.entries(output)
  return (
    <dl className="wf-run-output">
      {entries.map(([key, value]) => (
        <div key={key} className="wf-run-output__field">
          <dt>{key}</dt>
          <dd>
            {mode === 'markdown' && typeof value === 'string' ? (
              <MarkdownBlock text={value} />
            ) : (
              <LongText text={formatValue(value)} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** The Text / Markdown switch shown above outputs. */
export function OutputModeSwitch({ mode, onChange }: { mode: OutputMode; onChange(mode: OutputMode): void }) {
  const { t } = useTranslation('run')
  return (
    <div className="wf-run-switch" role="group" aria-label={t('details.viewAs')}>
      {(['text', 'markdown'] as const).map((m) => (
        <button
          key={m}
          type="button"
          className="wf-run-switch__option"
          aria-pressed={mode === m}
          data-testid={`output-mode-${m}`}
          onClick={() => onChange(m)}
        >
          {t(m === 'text' ? 'details.asText' : 'details.asMarkdown')}
        </button>
      ))}
    </div>
  )
}
