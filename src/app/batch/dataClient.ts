/**
 * The page's side of the batch data worker: a scan of a file and readers whose pages are asked
 * for one at a time (the batch pool pulls a page when a row slot is free). One worker per batch
 * screen, started on the first file chosen.
 */
import type { DataFormat, DataRow } from '../../batch/rows.ts'
import type { DataReply, DataRequest } from './dataProtocol.ts'

export interface DataPort {
  post(request: DataRequest): void
  /** Replies of the worker go to `listener`; a worker that fails calls `failure`. */
  listen(listener: (reply: DataReply) => void, failure: (message: string) => void): void
  terminate(): void
}

export function browserDataPort(): DataPort {
  const worker = new Worker(new URL('./data.worker.ts', import.meta.url), {
    type: 'module',
    name: 'batch-data.worker',
  })
  return {
    post: (request) => worker.postMessage(request),
    listen(listener, failure) {
      worker.onmessage = (event: MessageEvent<DataReply>) => listener(event.data)
      worker.onerror = (event) => {
        event.preventDefault()
        failure(event.message || 'The data worker failed to load.')
      }
    },
    terminate: () => worker.terminate(),
  }
}

type Waiter = { resolve(reply: DataReply): void; reject(error: Error): void }

export class DataClient {
  private next = 1
  private readonly waiting = new Map<number, Waiter>()

  constructor(private readonly port: DataPort) {
    port.listen(
      (reply) => {
        const waiter = this.waiting.get(reply.id)
        this.waiting.delete(reply.id)
        if (reply.type === 'failed') waiter?.reject(new Error(reply.message))
        else waiter?.resolve(reply)
      },
      (message) => {
        for (const waiter of this.waiting.values()) waiter.reject(new Error(message))
        this.waiting.clear()
      },
    )
  }

  private ask(request: DataRequest): Promise<DataReply> {
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject })
      this.port.post(request)
    })
  }

  async scan(
    file: Blob,
    format: DataFormat,
  ): Promise<{ columns: string[]; count: number; problems: number }> {
    const reply = await this.ask({ type: 'scan', id: this.next++, file, format })
    if (reply.type !== 'scanned') throw new Error('The data worker did not scan the file.')
    return reply
  }

  /** The file's rows (or only `only`), a page per `next()`. */
  rows(file: Blob, format: DataFormat, only?: number[]): AsyncIterator<DataRow[], undefined> {
    const id = this.next++
    this.port.post({ type: 'open', id, file, format, ...(only ? { only } : {}) })
    let ended = false
    return {
      next: async () => {
        if (ended) return { done: true, value: undefined }
        const reply = await this.ask({ type: 'next', id })
        if (reply.type === 'rows') return { done: false, value: reply.rows }
        ended = true
        return { done: true, value: undefined }
      },
      return: async () => {
        if (!ended) this.port.post({ type: 'close', id })
        ended = true
        return { done: true, value: undefined }
      },
    }
  }

  dispose(): void {
    this.port.terminate()
  }
}
