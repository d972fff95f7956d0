/** Knowledge node config: which base to search, with what query, how many results, how good. */
import { z } from '../../zodMini.ts'
import {
  KNOWLEDGE_MIN_SCORE,
  KNOWLEDGE_MIN_SCORE_RANGE,
  KNOWLEDGE_TOP_K,
  KNOWLEDGE_TOP_K_RANGE,
} from '../../defaults.ts'
import { rangedNumber } from '../shared.ts'

export const KNOWLEDGE_CONFIG_VERSION = 1

export const knowledgeConfigSchema = z.object({
  configVersion: z._default(z.literal(KNOWLEDGE_CONFIG_VERSION), KNOWLEDGE_CONFIG_VERSION),
  /** The knowledge base id ('' until one is named). A file names a base, never carries it. */
  base: z._default(z.string(), ''),
  /** A template: the question to search for, e.g. `{{input_1.question}}`. */
  query: z._default(z.string(), ''),
  topK: z._default(rangedNumber(KNOWLEDGE_TOP_K_RANGE), KNOWLEDGE_TOP_K),
  /** Results scoring below this are dropped (scores are in [0, 1]). */
  minScore: z._default(rangedNumber(KNOWLEDGE_MIN_SCORE_RANGE, false), KNOWLEDGE_MIN_SCORE),
})

export type KnowledgeConfig = z.infer<typeof knowledgeConfigSchema>

export function defaultKnowledgeConfig(): KnowledgeConfig {
  return {
    configVersion: KNOWLEDGE_CONFIG_VERSION,
    base: '',
    query: '',
    topK: KNOWLEDGE_TOP_K,
    minScore: KNOWLEDGE_MIN_SCORE,
  }
}
