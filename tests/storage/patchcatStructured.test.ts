import { describe, expect, it } from 'vitest'
import { importPatchCat } from '../../src/storage/patchcat.ts'

const schema = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['Pass', 'Reject'] }, score: { type: 'integer' } },
  required: ['verdict', 'score'],
}

function llmConfig(config: Record<string, unknown>): Record<string, unknown> | undefined {
  const result = importPatchCat({
    nodes: [
      {
        id: 'auditor',
        type: 'llm',
        position: { x: 0, y: 0 },
        data: { config: { model: 'm', ...config }, inputs: { prompt: 'Audit.' } },
      },
    ],
    edges: [],
  })
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.doc.nodes[0]?.data.config as Record<string, unknown> | undefined
}

describe('PatchCat structured output', () => {
  it('maps a schema object and its self-healing retries to the output schema', () => {
    expect(llmConfig({ outputSchema: schema, maxRetries: 3 })?.['output']).toEqual({
      schema,
      repairAttempts: 3,
    })
  })

  it('reads a schema kept as JSON text, or in OpenAI’s response_format shape', () => {
    expect(llmConfig({ jsonSchema: JSON.stringify(schema) })?.['output']).toMatchObject({ schema })
    expect(
      llmConfig({ responseFormat: { type: 'json_schema', json_schema: { name: 'audit', schema } } })?.[
        'output'
      ],
    ).toMatchObject({ schema })
    // PatchCat's engine spells the same block in camelCase.
    expect(
      llmConfig({ responseFormat: { type: 'json_schema', jsonSchema: { name: 'audit', schema } } })?.[
        'output'
      ],
    ).toMatchObject({ schema })
  })

  it('reads a structuredOutput block, and leaves a disabled one (or none) as a text node', () => {
    expect(llmConfig({ structuredOutput: { enabled: true, schema, retries: 9 } })?.['output']).toEqual({
      schema,
      repairAttempts: 5,
    })
    expect(llmConfig({ structuredOutput: { enabled: false, schema } })?.['output']).toBeUndefined()
    expect(llmConfig({})?.['output']).toBeUndefined()
  })
})
