// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ServicesContext, noopFlowsService, type ModelCallView } from '../../../src/ui/services.ts'
import { initI18n } from '../../../src/i18n/index.ts'
import { runStore } from '../../../src/store/runStore.ts'
import { ModelCalls } from '../../../src/ui/run/ModelCalls.tsx'

const call: ModelCallView = {
  startedAt: 1_000,
  at: 3_500,
  provider: 'openai',
  model: 'gpt-test',
  usage: { prompt: 1200, completion: 34 },
  request: {
    messages: [{ role: 'user', content: 'Summarise <b>this</b> [redacted]' }],
    tools: ['search'],
    temperature: 0.2,
  },
  reply: { text: 'A <script>reply</script>', toolCalls: [] },
}

beforeAll(async () => {
  await initI18n('en')
})

afterEach(() => {
  act(() => runStore.getState().actions.reset())
})

describe('model calls of a node', () => {
  it('lists the past run calls and opens the request and the raw reply as text', async () => {
    const asked: string[] = []
    act(() => runStore.getState().actions.showPast({ id: 'r9', startedAt: 0 }, {}, null))
    const { container } = render(
      <ServicesContext.Provider
        value={{
          flows: noopFlowsService,
          run: {
            run: () => undefined,
            stop: () => undefined,
            modelCalls: async (runId, nodeId) => {
              asked.push(`${runId}/${nodeId}`)
              return [call]
            },
          },
        }}
      >
        <ModelCalls nodeId="llm_1" status="success" />
      </ServicesContext.Provider>,
    )
    const list = await screen.findByTestId('node-model-calls')
    expect(asked).toEqual(['r9/llm_1'])
    expect(list).toHaveAttribute('data-count', '1')
    expect(list.querySelector('summary')?.textContent).toBe('1 model call')
    const item = screen.getByTestId('node-model-call')
    expect(item.querySelector('summary')?.textContent).toBe('gpt-test · 1,234 tokens · 2.5 s')
    fireEvent.click(item.querySelector('summary')!)
    expect(item.querySelector('[data-part="messages"]')?.textContent).toContain('Summarise <b>this</b>')
    expect(item.querySelector('[data-part="parameters"]')?.textContent).toContain('"temperature": 0.2')
    expect(item.querySelector('[data-part="parameters"]')?.textContent).toContain('search')
    expect(item.querySelector('[data-part="reply"]')?.textContent).toBe('A <script>reply</script>')
    // Text, never HTML: no element came from the request or the reply.
    expect(container.querySelector('b, script')).toBeNull()
  })

  it('shows nothing when the run has no calls for the node', async () => {
    act(() => runStore.getState().actions.showPast({ id: 'r8', startedAt: 0 }, {}, null))
    let asked = 0
    render(
      <ServicesContext.Provider
        value={{
          flows: noopFlowsService,
          run: {
            run: () => undefined,
            stop: () => undefined,
            modelCalls: async () => {
              asked += 1
              return []
            },
          },
        }}
      >
        <ModelCalls nodeId="code_1" status="success" />
      </ServicesContext.Provider>,
    )
    await act(async () => {})
    expect(asked).toBe(1)
    expect(screen.queryByTestId('node-model-calls')).toBeNull()
  })
})
