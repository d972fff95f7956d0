/**
 * A modal dialog: focus moves into it on open and back on close, Escape and the backdrop close
 * it, Tab stays inside. No portal: it is fixed-position over the app.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { IconButton } from './Button.tsx'

export interface DialogProps {
  open: boolean
  title: string
  onClose(): void
  children: ReactNode
  footer?: ReactNode
  closeLabel: string
  size?: 'sm' | 'md' | 'lg'
  testId?: string
}

/** Open dialogs, innermost last: only the innermost one answers Escape and traps Tab. */
const openDialogs: object[] = []

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  closeLabel,
  size = 'md',
  testId,
}: DialogProps) {
  const titleId = useId()
  const ref = useRef<HTMLDivElement>(null)
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })

  useEffect(() => {
    if (!open) return
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const box = ref.current
    const first =
      box?.querySelector<HTMLElement>('[data-autofocus]') ?? box?.querySelector<HTMLElement>(FOCUSABLE)
    first?.focus()
    const token = {}
    openDialogs.push(token)
    const onKey = (event: KeyboardEvent): void => {
      if (openDialogs[openDialogs.length - 1] !== token) return
      if (event.key === 'Escape') {
        event.stopPropagation()
        onCloseRef.current()
      } else if (event.key === 'Tab' && box) {
        const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)]
        const head = items[0]
        const tail = items[items.length - 1]
        if (!head || !tail) return
        if (event.shiftKey && document.activeElement === head) {
          event.preventDefault()
          tail.focus()
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault()
          head.focus()
        }
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      openDialogs.splice(openDialogs.indexOf(token), 1)
      previous?.focus()
    }
  }, [open])

  if (!open) return null
  return (
    <div className="wf-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={`wf-dialog wf-dialog--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="wf-dialog__header">
          <h2 id={titleId}>{title}</h2>
          <IconButton icon="close" label={closeLabel} onClick={onClose} size="sm" />
        </header>
        <div className="wf-dialog__body">{children}</div>
        {footer ? <footer className="wf-dialog__footer">{footer}</footer> : null}
      </div>
    </div>
  )
}
