/**
 * A real redis-server for one test: its own free port out of REDIS_TEST_PORTS (default
 * 6395-6399), its own temporary folder, an append-only file synced on every write (so a restart
 * keeps the queue, as a production Redis with persistence would), killed and removed by stop().
 * scripts/ensure-redis.mjs installs the binary (`npm run test:integration` runs it first).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'

const BINARY = process.env.REDIS_SERVER ?? 'redis-server'
/** How long a server may take to say it is ready (ms; a loaded 2-core machine is slow). */
const READY_TIMEOUT_MS = 15_000

function ports(): number[] {
  const [from, to] = (process.env.REDIS_TEST_PORTS ?? '6395-6399').split('-').map(Number)
  const list: number[] = []
  const first = from ?? 6395
  for (let p = first; p <= (to ?? first) && list.length < 100; p++) list.push(p)
  return list
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    BINARY,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return new Promise((resolve, reject) => {
    let log = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server on ${port} was not ready in ${READY_TIMEOUT_MS} ms:\n${log}`))
    }, READY_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server on ${port} exited with ${code}:\n${log}`))
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

export class RedisServer {
  private clients: Redis[] = []

  private constructor(
    readonly port: number,
    readonly dir: string,
    private child: ChildProcess,
  ) {}

  static async start(): Promise<RedisServer> {
    const dir = await mkdtemp(join(tmpdir(), 'wardflow-redis-'))
    let lastError: unknown
    for (const port of ports()) {
      if (!(await isFree(port))) continue
      try {
        return new RedisServer(port, dir, await launch(port, dir))
      } catch (error) {
        lastError = error // taken meanwhile by someone else: the next port
      }
    }
    await rm(dir, { recursive: true, force: true })
    throw new Error(`no redis-server could start on ${ports().join(', ')}: ${String(lastError)}`)
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** A client of the test's own, closed by stop(). */
  client(): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: null })
    client.on('error', () => {}) // reconnects on its own while the server restarts
    this.clients.push(client)
    return client
  }

  /** Shuts the server down (SIGTERM: it syncs its file), waits out `downMs`, starts it again. */
  async restart(downMs: number): Promise<void> {
    this.child.kill('SIGTERM')
    await exited(this.child)
    await new Promise((resolve) => setTimeout(resolve, downMs))
    this.child = await launch(this.port, this.dir)
  }

  async stop(): Promise<void> {
    for (const client of this.clients) client.disconnect()
    this.child.kill('SIGKILL')
    await exited(this.child)
    await rm(this.dir, { recursive: true, force: true })
  }
}
