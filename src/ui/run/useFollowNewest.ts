/**
 * Keeps a scrolling console at its newest text unless the person scrolled up to read, and marks
 * it `data-full` while its text overflows (CSS then fixes its size, see canvas.css).
 *
 * Everything happens in a ResizeObserver on the content: the observer runs after the browser's
 * own layout of the frame, before paint, so reading sizes there costs nothing. Whether to follow
 * is decided there too, from where the view was when the content grew: at the bottom of the
 * previous content means following, anywhere above means the person is reading (scroll
 * anchoring is off on consoles, canvas.css, so text dropped at the front of a console over its
 * cap does not move the view as if the person had scrolled). There is no
 * scroll handler on purpose: a scroll event comes before the frame's layout, so one that reads a
 * size lays the page out an extra time, and the console scrolls on nearly every frame while a
 * reply streams.
 */
import { useLayoutEffect, type RefObject } from 'react'
import { CONSOLE_FOLLOW_SLACK_PX } from '../../defaults.ts'

export function useFollowNewest(
  box: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): void {
  useLayoutEffect(() => {
    const scroller = box.current
    const inner = content.current
    if (!scroller || !inner) return undefined
    // The scroll height at the last look; 0 at first, so a console starts at its newest text.
    let lastHeight = 0
    const follow = () => {
      const height = scroller.scrollHeight
      const view = scroller.clientHeight
      const full = height > view
      if (full !== scroller.hasAttribute('data-full')) scroller.toggleAttribute('data-full', full)
      const wasAtBottom = scroller.scrollTop + view >= lastHeight - CONSOLE_FOLLOW_SLACK_PX
      if (wasAtBottom && height > view) scroller.scrollTop = height
      lastHeight = height
    }
    // The observer's first report (right after it starts observing) is the first look; it
    // comes again after the console is shown again, as its content then resizes from nothing.
    const observer = new ResizeObserver(follow)
    observer.observe(inner)
    return () => observer.disconnect()
  }, [box, content])
}
