/**
 * Keeps a scrolling console at its newest text unless the person scrolled up to read, and marks
 * it `data-full` while its text overflows (CSS then fixes its size, see canvas.css).
 *
 * It scrolls from a ResizeObserver on the content: the observer runs after the browser's own
 * layout of the frame, before paint, so nothing reads a size right after text was appended
 * (that would force an extra layout inside the drawing, every frame while a reply streams).
 */
import { useCallback, useLayoutEffect, useRef, type RefObject, type UIEvent } from 'react'
import { CONSOLE_FOLLOW_SLACK_PX } from '../../defaults.ts'

export interface FollowNewest {
  /** The scroll handler of the console box: following stops while the person reads above. */
  onScroll(event: UIEvent<HTMLElement>): void
}

export function useFollowNewest(
  box: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): FollowNewest {
  const stick = useRef(true)

  const follow = useCallback(() => {
    const el = box.current
    if (!el) return
    const height = el.scrollHeight
    const full = height > el.clientHeight
    if (full !== el.hasAttribute('data-full')) el.toggleAttribute('data-full', full)
    if (stick.current) el.scrollTop = height
  }, [box])

  useLayoutEffect(() => {
    const el = content.current
    if (!el) return undefined
    follow()
    const observer = new ResizeObserver(() => follow())
    observer.observe(el)
    return () => observer.disconnect()
  }, [content, follow])

  const onScroll = useCallback((event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < CONSOLE_FOLLOW_SLACK_PX
  }, [])

  return { onScroll }
}
