/**
 * Control of the local OpenAI-compatible mock server (tests/support/mockOpenAiServer.ts), which
 * Playwright starts as a webServer: queue scripted replies, read what the app sent, reset.
 * Each spec file that scripts replies has a mock server of its own (MOCK_PORTS, started by
 * playwright.config.ts), and a spec file runs in one worker, so tests never share a script or
 * see another spec's requests.
 */
import { expect, type APIRequestContext } from '@playwright/test'

export const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 4311)

/** One mock per spec that scripts replies: run.spec.ts, structuredOutput.spec.ts, debugLoop.spec.ts, batch.spec.ts. */
export const MOCK_PORTS = {
  run: MOCK_PORT,
  structured: MOCK_PORT + 1,
  debugLoop: MOCK_PORT + 2,
  batch: MOCK_PORT + 3,
} as const

export const mockBaseUrl = (port: number): string => `http://127.0.0.1:${port}/v1`
export const MOCK_BASE_URL = mockBaseUrl(MOCK_PORT)

export interface MockReply {
  text?: string
  chunks?: string[]
  delayMs?: number
  status?: number
  error?: string
}

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
}

export class MockModel {
  constructor(
    private readonly request: APIRequestContext,
    private readonly port: number = MOCK_PORT,
  ) {}

  private url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  async reset(): Promise<void> {
    const response = await this.request.post(this.url('/__mock/reset'))
    expect(response.ok()).toBe(true)
  }

  /** Queues replies for the next chat requests; then the echo script (or the last reply again). */
  async script(replies: MockReply[], then: 'echo' | 'repeat-last' = 'echo'): Promise<void> {
    const response = await this.request.post(this.url('/__mock/script'), { data: { replies, then } })
    expect(response.ok()).toBe(true)
  }

  async chatRequests(): Promise<RecordedRequest[]> {
    const response = await this.request.get(this.url('/__mock/requests'))
    const all = (await response.json()) as RecordedRequest[]
    return all.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
  }
}

/** `count` words of filler text, so a streamed reply takes a while. */
export function words(count: number, stem = 'token'): string {
  return Array.from({ length: count }, (_, i) => `${stem}${i + 1}`).join(' ')
}
