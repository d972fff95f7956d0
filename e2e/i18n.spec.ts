/**
 * zh-CN as a person switches to it: the problems list, a refused import, a new Agent's prompt and
 * the Demo provider read Chinese, not the English the engine and the file checks write.
 */
import { expect, test } from './support/fixtures.ts'
import { jsonFile } from './support/files.ts'

const HAN = /\p{Script=Han}/u

test('in zh-CN the problems list, a refused import, the Agent prompt and the Demo provider are Chinese', async ({
  app,
  page,
}) => {
  await app.open()
  await app.setLanguage('zh-CN')

  // A fresh LLM node has no prompt: the problems list says so in Chinese.
  const llm = await app.canvas.addByClick('llm')
  const problem = page.locator(`[data-testid="problem-item"][data-node-id="${llm}"]`)
  await expect(problem).toHaveCount(1)
  await expect(problem).toContainText('请为模型写一段提示词')
  await expect(problem).not.toContainText(/Write a prompt/)

  // The provider picker names the built-in provider in Chinese.
  await app.canvas.select(llm)
  await app.inspector.shows(llm)
  await expect(
    app.inspector.root.locator('select option').filter({ hasText: '演示（离线）' }).first(),
  ).toBeAttached()
  await expect(app.inspector.root).not.toContainText('Demo (offline)')

  // A new Agent's system prompt is written in the person's language.
  const agent = await app.canvas.addByClick('agent')
  await app.canvas.select(agent)
  await app.inspector.shows(agent)
  await expect
    .poll(async () =>
      app.inspector.root.evaluate((root) =>
        [...root.querySelectorAll('textarea')].map((el) => el.value).join('\n'),
      ),
    )
    .toContain('你是一名细心的助手')

  // A file with a broken edge is refused, and what is wrong reads Chinese.
  const broken = {
    format: 'wardflow.workflow',
    version: 1,
    metadata: {
      id: 'broken',
      name: 'broken',
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
    },
    nodes: [
      {
        id: 'a',
        type: 'input',
        position: { x: 0, y: 0 },
        data: { label: 'a', config: { configVersion: 1, values: {} } },
      },
    ],
    edges: [{ id: 'e1', source: 'a', target: 'ghost' }],
  }
  await app.importWorkflow(jsonFile('broken.wardflow.json', broken))
  const problems = app.errorBanner.getByTestId('error-banner-problems')
  await expect(problems).toContainText('终点节点“ghost”不在文件中')
  await expect(problems).toHaveText(HAN)
  await expect(problems).not.toContainText(/which is not in the file/)
})
