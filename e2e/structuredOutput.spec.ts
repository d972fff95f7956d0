/**
 * Structured output end to end: an LLM node given a schema in the inspector's field form asks
 * the local OpenAI-compatible mock natively (response_format json_schema), repairs a reply that
 * is not JSON, and a condition picks its `data` field from the upstream list to route the flow.
 */
import { expect, test } from './support/fixtures.ts'
import { mockBaseUrl, MOCK_PORTS, MockModel } from './support/mockModel.ts'

let mock: MockModel

test.beforeEach(async ({ app, request }) => {
  mock = new MockModel(request, MOCK_PORTS.structured)
  await mock.reset()
  await app.open()
})

test('an LLM with a schema feeds a condition: native request, one repair, the data routes the run', async ({
  app,
}) => {
  test.slow()
  const { canvas, inspector, run, settings } = app
  await settings.open()
  await settings.addProvider({
    id: 'mock',
    name: 'Local mock',
    kind: 'openai',
    baseUrl: mockBaseUrl(MOCK_PORTS.structured),
    apiKey: 'sk-e2e-mock-0123456789',
    model: 'mock-model',
  })
  await settings.close()

  await app.page.getByRole('button', { name: 'Zoom out', exact: true }).click()
  const llm = await canvas.dragFromPalette('llm', await canvas.pointAt(0.15, 0.4))
  const route = await canvas.dragFromPalette('condition', await canvas.pointAt(0.45, 0.4))
  const refund = await canvas.dragFromPalette('template', await canvas.pointAt(0.78, 0.18))
  const other = await canvas.dragFromPalette('template', await canvas.pointAt(0.78, 0.66))
  await canvas.connect(llm, route)

  await canvas.select(llm)
  await inspector.shows(llm)
  await inspector.field('Prompt').fill('Classify: my order arrived broken, I want my money back.')
  await inspector.enableOutputSchema()
  await inspector.addSchemaField({ name: 'intent', type: 'one of', values: 'refund, question' })
  await inspector.addSchemaField({ name: 'urgency', type: 'whole number' })

  await canvas.select(route)
  await inspector.shows(route)
  // The picker lists the schema's fields before any run.
  await inspector.fillCase(1, { id: 'refund', pick: `{{${llm}.data.intent}}`, op: 'equals', to: 'refund' })
  await canvas.connectPort(route, 'refund', refund)
  await canvas.connectPort(route, 'else', other)

  await canvas.select(refund)
  await inspector.shows(refund)
  // Autocomplete: `{{` then part of the path, Enter takes the first match.
  const template = inspector.field('Template')
  await inspector.typeInto(template, `Refund, urgency {{${llm}.data.urg`)
  await expect(inspector.root.getByTestId('ref-suggestion').first()).toHaveText(`{{${llm}.data.urgency}}`)
  await template.press('Enter')
  await expect(template).toHaveValue(`Refund, urgency {{${llm}.data.urgency}}`)
  await canvas.clickEmpty()
  await expect(app.page.getByRole('region', { name: 'Problems' })).toContainText('No problems')

  await mock.script([
    { text: 'It is a refund request, fairly urgent.' },
    { chunks: ['{"intent":', '"refund",', '"urgency":4}'], delayMs: 50 },
  ])
  await run.start()
  await run.finished()
  await run.expectStatus(llm, 'success')
  await run.expectStatus(refund, 'success')
  await run.expectStatus(other, 'skipped')
  await expect.poll(() => run.consoleText(llm)).toContain('{"intent":"refund","urgency":4}')
  await expect.poll(() => run.consoleText(llm)).toContain('Attempt 1 does not fit the schema')

  const sent = await mock.chatRequests()
  expect(sent).toHaveLength(2)
  const body = sent[0]?.body as { response_format?: { type: string; json_schema: { schema: unknown } } }
  expect(body.response_format?.type).toBe('json_schema')
  expect(body.response_format?.json_schema.schema).toEqual({
    type: 'object',
    properties: { intent: { type: 'string', enum: ['refund', 'question'] }, urgency: { type: 'integer' } },
    required: ['intent', 'urgency'],
    additionalProperties: false,
  })
  const repair = (sent[1]?.body as { messages: Array<{ role: string; content: string }> }).messages
  expect(repair.at(-1)?.content).toContain('not JSON')
})
