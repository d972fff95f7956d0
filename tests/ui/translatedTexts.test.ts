/**
 * What a zh-CN reader sees of texts the system writes in English: problems of the flow (config
 * issues, zod issues), a refused file's problems, a node's error and skip lines, an Agent's default
 * prompt and the Demo provider's name. English readers keep the exact English texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FlowDocument } from '../../src/engine/index.ts'
import { preflight } from '../../src/engine/index.ts'
import { changeLanguage, i18next, initI18n, ISSUES_NAMESPACE, loadNamespaces } from '../../src/i18n/index.ts'
import { getNodeDefinition, engineRegistry } from '../../src/nodes/registry.ts'
import { DEMO_PROVIDER } from '../../src/settings/schema.ts'
import { parseWorkflowText } from '../../src/storage/index.ts'
import { runLineLabeller } from '../../src/app/runs/runLines.ts'
import { newNodeAt } from '../../src/ui/canvas/newNode.ts'
import { issueText } from '../../src/ui/kit/issueText.ts'
import { providerLabel } from '../../src/ui/kit/providerLabel.ts'
import { problemText } from '../../src/ui/problems/problemText.ts'

const t = (key: string, values?: Record<string, string | number>): string => i18next.t(key, values)
const HAN = /\p{Script=Han}/u

function node(id: string, type: string, patch: Record<string, unknown> = {}): FlowDocument['nodes'][number] {
  const config = { ...(getNodeDefinition(type)?.defaultConfig() as Record<string, unknown>), ...patch }
  return { id, type, position: { x: 0, y: 0 }, data: { label: id, config } }
}

function doc(nodes: FlowDocument['nodes']): FlowDocument {
  return {
    metadata: { id: 'f', name: 'f', createdAt: '', updatedAt: '' } as FlowDocument['metadata'],
    viewport: { x: 0, y: 0, zoom: 1 },
    nodes,
    edges: [],
  }
}

function problemsIn(flow: FlowDocument): string[] {
  return preflight(flow, engineRegistry).map((p) => problemText(p, t, (id) => id))
}

const broken = doc([
  node('llm_1', 'llm', { prompt: '' }),
  node('agent_1', 'agent', { prompt: '', tools: [{ name: '', kind: 'code', code: '' }] }),
  node('llm_2', 'llm', { prompt: 'x', temperature: 7 }),
])

beforeAll(async () => {
  await initI18n('en')
  // What the app loads with everything that words problems (ui/useCatalogues.ts).
  await loadNamespaces([ISSUES_NAMESPACE])
})
afterAll(async () => {
  await changeLanguage('en')
})

describe('in English', () => {
  it('problems keep the engine’s English words', async () => {
    await changeLanguage('en')
    const texts = problemsIn(broken)
    expect(texts).toEqual(
      expect.arrayContaining([
        '"llm_1": Write a prompt for the model.',
        '"agent_1": Write a prompt for the agent.',
        '"agent_1": Tool 1 needs a name.',
        '"agent_1": Write the code of tool 1.',
      ]),
    )
    expect(texts.some((s) => s.startsWith('"llm_2": “temperature”: Must be at most'))).toBe(true)
  })
})

describe('in zh-CN', () => {
  beforeAll(async () => {
    await changeLanguage('zh-CN')
  })

  it('every problem of a broken flow is worded in Chinese, config and zod issues included', () => {
    const texts = problemsIn(broken)
    expect(texts.length).toBeGreaterThanOrEqual(5)
    for (const text of texts) {
      expect(text).toMatch(HAN)
      expect(text).not.toMatch(/Write|needs a name|Must be|Too big|Expected/)
    }
    expect(texts).toContain('"agent_1"：请编写工具 1 的代码。')
    expect(texts.some((s) => s.includes('不能大于'))).toBe(true)
  })

  it('a refused file lists its problems in Chinese', () => {
    const texts = (json: string): string[] => {
      const parsed = parseWorkflowText(json)
      if (parsed.ok) throw new Error('expected a refusal')
      return parsed.problems.map((p) => issueText(t, p.key, p.params, p.message))
    }
    expect(texts('{"format": "wardflow.workflow", ')).toEqual([expect.stringMatching(/^文件不是有效的 JSON/)])
    expect(texts('{"hello": 1}')).toEqual([expect.stringMatching(/^这不是工作流文件/)])
    const file = {
      format: 'wardflow.workflow',
      version: 1,
      metadata: { id: 'f', name: 'f' },
      nodes: [
        node('a', 'input'),
        { ...node('b', 'llm'), data: { label: 'b', config: { temperature: 'hot' } } },
      ],
      edges: [{ id: 'e', source: 'a', target: 'ghost' }],
    }
    const listed = texts(JSON.stringify(file))
    expect(listed.length).toBeGreaterThan(0)
    for (const text of listed) expect(text).toMatch(HAN)
  })

  it('a node’s error line leads with the Chinese explanation and keeps the system’s detail', () => {
    const lines = runLineLabeller(t, (id) => (id === 'fetch' ? '抓取' : undefined))
    const line = lines.error('HTTP_STATUS', 'HTTP 404 Not Found from http://127.0.0.1/x')
    expect(line.split('\n')[0]).toMatch(HAN)
    expect(line).toContain('HTTP 404 Not Found from http://127.0.0.1/x')
    expect(lines.error('CANCELLED', 'The run was stopped.')).toMatch(HAN)
    expect(lines.skipped({ reason: 'Skipped because "fetch" failed.', failedNodeId: 'fetch' })).toBe(
      '已跳过，因为“抓取”失败了。',
    )
  })

  it('a new Agent’s system prompt and the Demo provider’s name are Chinese', () => {
    const agent = newNodeAt('agent', { x: 0, y: 0 }, i18next.t, false)
    expect(String(agent?.config['systemPrompt'])).toMatch(HAN)
    expect(providerLabel(DEMO_PROVIDER, i18next.t)).toBe('演示（离线）')
    expect(providerLabel({ ...DEMO_PROVIDER, label: 'My demo' }, i18next.t)).toBe('My demo')
  })
})
