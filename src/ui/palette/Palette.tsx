/**
 * The node palette: drag an entry onto the canvas (it lands under the pointer), or click /
 * press Enter to add it in the middle of the view. Each entry explains its type in a tooltip.
 */
import { memo, type CSSProperties, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { getNodeDefinition, nodeCatalog } from '../../nodes/registry.ts'
import { useReadOnly } from '../../store/flowStore.ts'
import { Tooltip } from '../kit/Tooltip.tsx'
import { useCanvasCommands } from '../canvas/commands.ts'
import { PALETTE_MIME } from '../canvas/dnd.ts'

function onDragStart(event: DragEvent<HTMLButtonElement>, type: string): void {
  event.dataTransfer.setData(PALETTE_MIME, type)
  event.dataTransfer.setData('text/plain', type)
  event.dataTransfer.effectAllowed = 'move'
}

const PaletteItem = memo(function PaletteItem({
  type,
  onAdd,
  readOnly,
}: {
  type: string
  onAdd: (type: string) => void
  /** A past run is shown: nothing can be added. */
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const definition = getNodeDefinition(type)
  const label = definition ? t(definition.labelKey) : t(`palette.fallback.${type}`, { defaultValue: type })
  const description = definition ? t(definition.descriptionKey) : t('palette.notAvailable')
  const style = { '--node-accent': definition?.color ?? 'var(--text-faint)' } as CSSProperties
  return (
    <li>
      <Tooltip text={description}>
        {(describedBy) => (
          <button
            type="button"
            className="wf-palette__item"
            data-testid={`palette-item-${type}`}
            aria-describedby={describedBy}
            aria-label={t('palette.add', { type: label })}
            draggable={definition !== undefined && !readOnly}
            disabled={definition === undefined || readOnly}
            onDragStart={(e) => onDragStart(e, type)}
            onClick={() => onAdd(type)}
            style={style}
          >
            <span className="wf-palette__icon" aria-hidden="true">
              {definition?.icon ?? '·'}
            </span>
            <span className="wf-palette__label">{label}</span>
          </button>
        )}
      </Tooltip>
    </li>
  )
})

export function Palette() {
  const { t } = useTranslation()
  const commands = useCanvasCommands()
  const readOnly = useReadOnly()
  return (
    <section className="wf-panel-section wf-palette" aria-labelledby="wf-palette-title">
      <h2 id="wf-palette-title" className="wf-section-title">
        {t('palette.title')}
      </h2>
      <p className="wf-section-hint" role={readOnly ? 'note' : undefined}>
        {readOnly ? t('palette.readOnly') : t('palette.hint')}
      </p>
      <ul className="wf-palette__list">
        {nodeCatalog.palette().map((type) => (
          <PaletteItem key={type} type={type} onAdd={commands.addAtCenter} readOnly={readOnly} />
        ))}
      </ul>
    </section>
  )
}
