/** HTTP node: one templated request with timeout, retries and a size cap. */
import { defineNodeType } from '../../engine/index.ts'
import { firstLine } from '../shared.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import { defaultHttpConfig, HTTP_CONFIG_VERSION, httpConfigSchema, type HttpConfig } from './schema.ts'

export const httpNode: NodeDefinition<HttpConfig> = {
  type: 'http',
  icon: '⇄',
  color: '#319795',
  labelKey: 'nodes:http.label',
  descriptionKey: 'nodes:http.description',
  configVersion: HTTP_CONFIG_VERSION,
  schema: httpConfigSchema,
  defaultConfig: defaultHttpConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.HTTP_FIELDS),
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
