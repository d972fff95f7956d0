// The local OpenAI-compatible mock server (tests/support/mockOpenAiServer.ts) as a child
// process, and a one-node LLM flow that calls it.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

function freePort() {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Starts the mock; resolves to `{ baseUrl, script(body), close() }`. */
export async function startMock() {
  const port = await freePort()
  const child = spawn(
    'npx',
    ['tsx', 'tests/support/mockOpenAiServer.ts', '--port', String(port), '--delay-ms', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group, so closing ends npx, tsx and the server together.
      detached: true,
    },
  )
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`mock server exited (${code})`)))
    child.stdout.on('data', (data) => {
      if (String(data).includes('Mock OpenAI-compatible server')) resolve()
    })
  })
  const url = `http://127.0.0.1:${port}`
  return {
    baseUrl: `${url}/v1`,
    async script(body) {
      const res = await fetch(`${url}/__mock/script`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (!res.ok) throw new Error(`mock script refused: ${res.status}`)
    },
    close() {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
    },
  }
}

/** One LLM node calling provider `providerId`, streaming. */
export function llmWorkflow(id, providerId) {
  const stamp = '2026-11-29T00:00:00.000Z'
  return {
    format: 'wardflow.workflow',
    version: 1,
    metadata: { id, name: 'Bench stream', description: '', tags: [], createdAt: stamp, updatedAt: stamp },
    viewport: { x: 40, y: 40, zoom: 1 },
    nodes: [
      {
        id: 'writer',
        type: 'llm',
        position: { x: 0, y: 0 },
        data: {
          label: 'Writer',
          config: {
            configVersion: 1,
            provider: providerId,
            model: 'mock-model',
            prompt: 'Write a lot.',
            stream: true,
          },
        },
      },
    ],
    edges: [],
  }
}
