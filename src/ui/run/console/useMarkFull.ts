/**
 * Marks a console box `data-full` while its text overflows it (CSS then fixes the node console's
 * size and contains its layout, see canvas.css).
 *
 * Following the newest text needs no script: consoles stack their content from the bottom
 * (`.wf-console-scroll`, run.css), which puts the scroll origin at the
 * bottom edge. A console scrolled to its newest text (scrollTop 0) stays there as text arrives,
 * and one scrolled up to read keeps the text in view through the browser's scroll anchoring,
 * also when text is dropped at the front of a console over its cap (that is above the view, and
 * the origin is below it). Scrolling from script, as this hook once did after every draw, cost a
 * frame of its own each time (the scroll event, and a hit test of the page under the mouse):
 * some 700 frames for a reply of 20,000 tokens.
 *
 * The check runs in a ResizeObserver on the content: the observer runs after the browser's own
 * layout of the frame, before paint, so reading sizes there costs nothing.
 */
import { useLayoutEffect, type RefObject } from 'react'

export function useMarkFull(
  box: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): void {
  useLayoutEffect(() => {
    const scroller = box.current
    const inner = content.current
    if (!scroller || !inner) return undefined
    const look = () => {
      const full = scroller.scrollHeight > scroller.clientHeight
      if (full !== scroller.hasAttribute('data-full')) scroller.toggleAttribute('data-full', full)
    }
    const observer = new ResizeObserver(look)
    observer.observe(inner)
    return () => observer.disconnect()
  }, [box, content])
}
