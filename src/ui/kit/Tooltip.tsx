/**
 * A light tooltip: shown on hover and keyboard focus, described to screen readers through
 * aria-describedby. The trigger is the single child element's wrapper.
 */
import { useId, useState, type ReactNode } from 'react'

export interface TooltipProps {
  text: string
  children: (describedBy: string) => ReactNode
  placement?: 'right' | 'bottom'
}

/** Focus from the keyboard shows the tooltip; focus left behind by a click does not. */
function isKeyboardFocus(target: EventTarget): boolean {
  try {
    return target instanceof Element && target.matches(':focus-visible')
  } catch {
    return true
  }
}

export function Tooltip({ text, children, placement = 'right' }: TooltipProps) {
  const id = useId()
  const [shown, setShown] = useState(false)
  return (
    <span
      className="wf-tooltip-anchor"
      onMouseEnter={() => setShown(true)}
      onMouseLeave={() => setShown(false)}
      onMouseDown={() => setShown(false)}
      onFocus={(e) => setShown(isKeyboardFocus(e.target))}
      onBlur={() => setShown(false)}
    >
      {children(id)}
      <span
        id={id}
        role="tooltip"
        className={`wf-tooltip wf-tooltip--${placement}`}
        data-shown={shown || undefined}
      >
        {text}
      </span>
    </span>
  )
}
