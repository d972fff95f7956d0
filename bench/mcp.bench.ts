/**
 * MCP client bench (`npx tsx bench/mcp.bench.ts`, part of `npm run bench`; issue 21): the CLI's
 * MCP client (cliMcp -> the hub -> the SDK's Streamable HTTP client, as `wardflow run --mcp`
 * uses it) against a small real MCP server (bench/support/mcpBenchServer.ts: the SDK's
 * McpServer over Streamable HTTP) in a child process on loopback. The server's tool measures its
 * own handling time and returns it; a call's overhead is the client's round trip minus that.
 *
 * Targets: overhead per tool call <= 5 ms (p50 of 200 calls, wall time) and connecting (a new
 * hub's first listTools: the SDK's dynamic import, initialize, tools/list) <= 300 ms for the
 * process's first connection (cold, as the CLI's first Agent node meets it); later connections of
 * fresh hubs beside it. Wall time, since two processes and the loopback take part; the client's
 * own CPU per call is shown beside it. Exits non-zero when a target fails.
 */
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { cliMcp } from '../src/cli/mcp.ts'
import type { McpPort } from '../src/engine/index.ts'

const CALL_TARGET_MS = 5
const CONNECT_TARGET_MS = 300
const CALLS = 200
const WARM_CONNECTS = 9

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const server = spawn(process.execPath, ['--import', 'tsx', 'bench/support/mcpBenchServer.ts'], {
  env: { ...process.env, MCP_BENCH_PORT: process.env.MCP_BENCH_PORT ?? '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise<string>((done, fail) => {
  let out = ''
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    const found = /listening (\S+)/.exec(out)
    if (found) done(found[1] as string)
  })
  server.once('exit', (code) => fail(new Error(`the bench MCP server exited (${code})`)))
})

function hub(): McpPort {
  const port = cliMcp([{ id: 'bench', transport: 'http', url }], 'bench')
  if (!port) throw new Error('cliMcp made no port for one server')
  return port
}
const signal = new AbortController().signal

async function connect(): Promise<{ ms: number; cpu: number; port: McpPort }> {
  const start = performance.now()
  const cpuAtStart = cpuMs()
  const port = hub()
  const tools = await port.listTools('bench', new AbortController().signal)
  const ms = performance.now() - start
  // This process's CPU only (the server is a child process): what a shared core's wait is not.
  const cpu = cpuMs() - cpuAtStart
  if (!tools.some((tool) => tool.name === 'lookup')) throw new Error('the bench server lists no lookup tool')
  return { ms, cpu, port }
}

const median = (list: number[]): number =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number

try {
  const cold = await connect()
  const warm: number[] = []
  for (let i = 0; i < WARM_CONNECTS; i++) {
    const next = await connect()
    warm.push(next.ms)
    await next.port.close()
  }

  const port = cold.port
  const call = async (i: number): Promise<{ rtt: number; server: number }> => {
    const start = performance.now()
    const result = await port.callTool('bench', 'lookup', { key: `k${i}` }, { signal, timeoutMs: 10_000 })
    const rtt = performance.now() - start
    if (result.isError) throw new Error(result.text)
    const { handledMs } = JSON.parse(result.text) as { handledMs: number }
    return { rtt, server: handledMs }
  }
  for (let i = 0; i < 20; i++) await call(i) // warm-up / JIT on both sides
  const overheads: number[] = []
  const rtts: number[] = []
  const serverMs: number[] = []
  const cpuStart = cpuMs()
  for (let i = 0; i < CALLS; i++) {
    const { rtt, server: handled } = await call(i)
    rtts.push(rtt)
    serverMs.push(handled)
    overheads.push(rtt - handled)
  }
  const clientCpu = (cpuMs() - cpuStart) / CALLS
  await port.close()

  const overhead = median(overheads)
  const callPass = overhead <= CALL_TARGET_MS
  const connectPass = cold.ms <= CONNECT_TARGET_MS
  const rows = [
    ['measure', 'wall', 'beside it', 'target', 'result'],
    [
      'tool call overhead (round trip - server time), p50',
      `${overhead.toFixed(2)} ms`,
      `round trip ${median(rtts).toFixed(2)} ms, server ${median(serverMs).toFixed(2)} ms; client CPU ${clientCpu.toFixed(2)} ms/call`,
      `<= ${CALL_TARGET_MS} ms`,
      callPass ? 'PASS' : 'FAIL',
    ],
    [
      'connect, first of the process (SDK import + initialize + tools/list)',
      `${cold.ms.toFixed(1)} ms`,
      `client CPU ${cold.cpu.toFixed(1)} ms; later connections (fresh hub) p50 ${median(warm).toFixed(1)} ms`,
      `<= ${CONNECT_TARGET_MS} ms`,
      connectPass ? 'PASS' : 'FAIL',
    ],
  ]
  const widths = (rows[0] as string[]).map((_, col) =>
    Math.max(...rows.map((r) => (r[col] as string).length)),
  )
  for (const row of rows)
    console.log(
      row
        .map((cell, col) => cell.padEnd(widths[col] as number))
        .join('  ')
        .trimEnd(),
    )
  console.log(
    `(${CALLS} sequential calls after 20 warm-up, ${WARM_CONNECTS} later connections; Streamable HTTP on loopback, ` +
      `server in a child process; p90 overhead ${[...overheads].sort((a, b) => a - b)[Math.floor(CALLS * 0.9)]?.toFixed(2)} ms; ` +
      `load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}; Node ${process.version})`,
  )
  process.exitCode = callPass && connectPass ? 0 : 1
} finally {
  server.kill('SIGTERM')
}
