/** HTTP node config (docs/workflow-format.md); every string may hold `{{refs}}`. */
import { z } from 'zod'
import { HTTP_RETRIES, HTTP_RETRIES_RANGE, HTTP_TIMEOUT_MS, HTTP_TIMEOUT_RANGE_MS } from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'

export const HTTP_CONFIG_VERSION = 1

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

const keyValueSchema = z.object({ key: z.string(), value: z.string() })

export const httpConfigSchema = z.object({
  configVersion: z.literal(HTTP_CONFIG_VERSION).default(HTTP_CONFIG_VERSION),
  /** A string, not an enum, because it may be a template; checked after resolving. */
  method: z.string().default('GET'),
  url: z.string().default(''),
  headers: z.array(keyValueSchema).default([]),
  query: z.array(keyValueSchema).default([]),
  body: z.string().default(''),
  timeoutMs: rangedNumber(HTTP_TIMEOUT_RANGE_MS).default(HTTP_TIMEOUT_MS),
  retries: rangedNumber(HTTP_RETRIES_RANGE).default(HTTP_RETRIES),
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
