/**
 * PatchCat files that between them make the converter write every kind of note it has: each
 * node or edge below is there for one note (named beside it). Tests check that each note has a
 * catalogue key both languages word.
 */
import { defaultNodeLookup, type NodeLookup } from '../../src/storage/restore/index.ts'

const at = (x: number) => ({ x, y: 0 })

/** Nearly every note: ids, references, numbers, tools, code, http, edges, metadata. */
export const EVERY_NOTE_FILE = {
  version: '1.0.0',
  metadata: { id: 'notes', name: 'Every note', tags: ['ok', 7], author: 'tests' },
  viewport: { x: 0, y: 0, zoom: 1 },
  extra: true, // fileFields
  nodes: [
    // idChanged; valueRenamed; valueNotText; descriptions
    {
      id: 'in.put',
      type: 'input',
      position: at(0),
      data: { label: 'In', description: 'Where it starts', inputs: { 'my key': 'x', count: 5 } },
    },
    // refsRewritten (promptText -> text); noPosition
    { id: 'brief', type: 'prompt', data: { label: 'Brief', inputs: { template: 'Say {{in.put.my_key}}' } } },
    // provider; notNumber; outOfRange; leftOver
    {
      id: 'writer',
      type: 'llm',
      position: at(200),
      data: {
        label: 'Writer',
        config: { provider: 'openai', temperature: 'warm', maxTokens: 99_999_999, colour: 'red' },
        inputs: { prompt: '{{brief.promptText}}' },
      },
    },
    // toolNotObject; toolRenamed; toolMethod; toolKind
    {
      id: 'helper',
      type: 'agent',
      position: at(400),
      data: {
        label: 'Helper',
        config: {
          tools: [
            5,
            { name: 'look up', type: 'builtin_http', url: 'https://example.test', method: 'HEAD' },
            { name: 'shape_only', type: 'custom_schema' },
          ],
        },
        inputs: { prompt: 'Help' },
      },
    },
    // knowledgeAddBase
    {
      id: 'kb_named',
      type: 'knowledge',
      position: at(500),
      data: {
        label: 'Docs',
        config: { knowledgeBaseId: 'kb_docs', knowledgeBaseName: 'Docs', query: 'x', topK: 3 },
      },
    },
    // knowledgeNoBase
    {
      id: 'kb_unnamed',
      type: 'knowledge',
      position: at(550),
      data: { label: 'No base', config: { query: 'x' } },
    },
    // placeholder.noEquivalent
    { id: 'router', type: 'email', position: at(600), data: { label: 'Router', config: {} } },
    // placeholder.language
    {
      id: 'py',
      type: 'code',
      position: at(800),
      data: { label: 'Py', config: { language: 'python', code: 'print(1)' } },
    },
    // codeInputs
    {
      id: 'shout',
      type: 'code',
      position: at(1000),
      data: {
        label: 'Shout',
        config: { code: 'return inputs.text' },
        inputs: { text: '{{writer.response}}' },
      },
    },
    // authHeader; retry; bodyNone; httpInputs
    {
      id: 'api_header',
      type: 'http',
      position: at(1200),
      data: {
        label: 'API',
        config: {
          url: 'https://example.test/a',
          authType: 'bearer',
          authConfig: { token: 't0k3n' },
          retryConfig: { maxRetries: 2, retryDelayMs: 5 },
          bodyType: 'none',
          bodyContent: 'unsent',
        },
        inputs: { unused: 'x' },
      },
    },
    // authQuery
    {
      id: 'api_query',
      type: 'http',
      position: at(1400),
      data: {
        label: 'API 2',
        config: {
          url: 'https://example.test/b',
          authType: 'api-key',
          authConfig: { keyName: 'k', keyValue: 'v', addTo: 'query' },
        },
      },
    },
    // authNotConverted
    {
      id: 'api_odd',
      type: 'http',
      position: at(1600),
      data: { label: 'API 3', config: { url: 'https://example.test/c', authType: 'oauth9' } },
    },
    // placeholder.notConverted: a tool whose parameters are not an object schema
    {
      id: 'lost',
      type: 'agent',
      position: at(1700),
      data: {
        label: 'Lost',
        config: { tools: [{ name: 'call', type: 'code', code: 'return 1', schema: { type: 'string' } }] },
        inputs: { prompt: 'Go' },
      },
    },
    // outputRenamed; outputNotText
    {
      id: 'result',
      type: 'output',
      position: at(1800),
      data: { label: 'Result', inputs: { 'the end': { a: 1 } } },
    },
  ],
  edges: [
    5, // edgeNotObject
    { id: 'ghost', source: 'nowhere', target: 'writer' }, // edgeEnds
    { id: 'loop', source: 'writer', target: 'writer' }, // edgeSelfLoop
    { id: 'e1', source: 'in.put', target: 'brief', sourceHandle: 'weird', animated: true }, // handles; edgeDisplay
    { id: 'e2', source: 'brief', target: 'writer' },
  ],
}

/** A type this build is told it lacks (placeholder.notInBuild), and one field dropped. */
export const NOT_IN_BUILD_FILE = {
  version: '1.0.0',
  metadata: { id: 'missing', name: 'Missing type', author: 'tests' }, // fileFields
  nodes: [{ id: 'out', type: 'output', position: at(0), data: { label: 'Out', inputs: {} } }],
  edges: [],
}

/** Only tags dropped (fileTags). */
export const TAGS_ONLY_FILE = {
  version: '1.0.0',
  metadata: { id: 'tags', name: 'Tags', tags: [1] },
  nodes: [{ id: 'in', type: 'input', position: at(0), data: { label: 'In', inputs: {} } }],
  edges: [],
}

export const withoutOutput: NodeLookup = (type) => (type === 'output' ? undefined : defaultNodeLookup(type))
