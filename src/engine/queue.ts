import { EVENT_QUEUE_COMPACT_AT } from '../defaults.ts'

/**
 * An unbounded async queue: producers push without waiting, one consumer pulls with
 * `for await`. The runner pushes events from many concurrently running nodes into it, so the
 * consumer sees each event as soon as it happens instead of when a batch completes.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = []
  private head = 0
  private waiting: ((result: IteratorResult<T>) => void) | undefined
  private closed = false

  push(item: T): void {
    if (this.closed) return
    const waiter = this.waiting
    if (waiter) {
      this.waiting = undefined
      waiter({ value: item, done: false })
      return
    }
    this.items.push(item)
  }

  /** No more items; the consumer finishes after draining what is queued. */
  close(): void {
    this.closed = true
    const waiter = this.waiting
    if (waiter && this.head >= this.items.length) {
      this.waiting = undefined
      waiter({ value: undefined, done: true })
    }
  }

  get isClosed(): boolean {
    return this.closed
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T
      this.head++
      // Compact now and then so a long run does not keep every consumed event alive.
      if (this.head > EVENT_QUEUE_COMPACT_AT && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head)
        this.head = 0
      }
      return Promise.resolve({ value, done: false })
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true })
    return new Promise((resolve) => {
      this.waiting = resolve
    })
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next() }
  }
}
