/** HTTP node config (docs/workflow-format.md); every string may hold `{{refs}}`. */
import { z } from '../../zodMini.ts'
import { HTTP_RETRIES, HTTP_RETRIES_RANGE, HTTP_TIMEOUT_MS, HTTP_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'

export const HTTP_CONFIG_VERSION = 1

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

const keyValueSchema = z.object({ key: z.string(), value: z.string() })

export const httpConfigSchema = z.object({
  configVersion: z._default(z.literal(HTTP_CONFIG_VERSION), HTTP_CONFIG_VERSION),
  /** A string, not an enum, because it may be a template; checked after resolving. */
  method: z._default(z.string(), 'GET'),
  url: z._default(z.string(), ''),
  headers: z._default(z.array(keyValueSchema), []),
  query: z._default(z.array(keyValueSchema), []),
  body: z._default(z.string(), ''),
  timeoutMs: z._default(rangedNumber(HTTP_TIMEOUT_RANGE_MS), HTTP_TIMEOUT_MS),
  retries: z._default(rangedNumber(HTTP_RETRIES_RANGE), HTTP_RETRIES),
})

export type HttpConfig = z.infer<typeof httpConfigSchema>

export function defaultHttpConfig(): HttpConfig {
  return {
    configVersion: HTTP_CONFIG_VERSION,
    method: 'GET',
    url: '',
    headers: [],
    query: [],
    body: '',
    timeoutMs: HTTP_TIMEOUT_MS,
    retries: HTTP_RETRIES,
  }
}
