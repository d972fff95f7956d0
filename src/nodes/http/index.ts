/** HTTP node: one templated request with timeout, retries and a size cap. */
import { defineNodeType } from '../../engine/index.ts'
import { HTTP_RETRIES_RANGE, HTTP_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import { firstLine } from '../shared.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultHttpConfig,
  HTTP_CONFIG_VERSION,
  HTTP_METHODS,
  httpConfigSchema,
  type HttpConfig,
} from './schema.ts'

const key = (name: string, part: 'label' | 'help'): string => `fields:http.${name}.${part}`

export const httpNode: NodeDefinition<HttpConfig> = {
  type: 'http',
  icon: '⇄',
  color: '#319795',
  labelKey: 'nodes:http.label',
  descriptionKey: 'nodes:http.description',
  configVersion: HTTP_CONFIG_VERSION,
  schema: httpConfigSchema,
  defaultConfig: defaultHttpConfig,
  fields: [
    {
      key: 'method',
      kind: 'select',
      options: HTTP_METHODS.map((m) => ({ value: m, labelKey: `nodes:http.methods.${m}` })),
      labelKey: key('method', 'label'),
      helpKey: key('method', 'help'),
    },
    { key: 'url', kind: 'text', labelKey: key('url', 'label'), helpKey: key('url', 'help') },
    { key: 'query', kind: 'keyValues', labelKey: key('query', 'label'), helpKey: key('query', 'help') },
    { key: 'headers', kind: 'keyValues', labelKey: key('headers', 'label'), helpKey: key('headers', 'help') },
    {
      key: 'body',
      kind: 'textarea',
      language: 'json',
      labelKey: key('body', 'label'),
      helpKey: key('body', 'help'),
    },
    {
      key: 'timeoutMs',
      kind: 'number',
      range: HTTP_TIMEOUT_RANGE_MS,
      unit: 'ms',
      labelKey: key('timeoutMs', 'label'),
      helpKey: key('timeoutMs', 'help'),
    },
    {
      key: 'retries',
      kind: 'number',
      range: HTTP_RETRIES_RANGE,
      labelKey: key('retries', 'label'),
      helpKey: key('retries', 'help'),
    },
  ],
  summary: (config) => firstLine(`${config.method.toUpperCase()} ${config.url}`),
  palette: { group: 'actions', order: 20 },
  uses: () => ({ network: true }),
  wiring: { mainOutput: () => 'body' },
  engine: defineNodeType<HttpConfig>({
    type: 'http',
    parseConfig: zodParser(httpConfigSchema),
    outputs: () => ['status', 'ok', 'headers', 'body'],
    check: (config) =>
      config.url.trim() === ''
        ? [{ path: 'url', message: 'Enter the URL to request.', key: 'nodes:issues.urlMissing' }]
        : [],
    templates: (config) => [
      config.method,
      config.url,
      config.body,
      ...config.headers.flatMap((h) => [h.key, h.value]),
      ...config.query.flatMap((q) => [q.key, q.value]),
    ],
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeHttp)),
  }),
}
