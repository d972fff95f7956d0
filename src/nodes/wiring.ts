/**
 * What drawing a connection fills in. A person who wires Input -> LLM -> Output expects the LLM
 * to ask the input's question and the Output to show the reply, not to find out after a run that
 * an edge only sets the order. So when a connection is drawn, the target's field that reads
 * upstream text gets a `{{source.field}}` reference to the source's main output, but only while
 * that field is still empty: nothing a person typed is ever replaced. The store applies it in
 * the same undo step as the edge.
 *
 * One table for every type (instead of a member per node folder) because the rule is about
 * pairs of types: which field a source offers and which field a target fills.
 */
import type { FlowNode } from '../engine/index.ts'

type Config = Readonly<Record<string, unknown>>

function recordOf(value: unknown): Readonly<Record<string, unknown>> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

function isBlank(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && value.trim() === '')
}

/** The output field a downstream node most likely wants from a node of `type`. */
export function mainOutputField(type: string, config: Config): string | undefined {
  switch (type) {
    case 'input':
    case 'output':
      return Object.keys(recordOf(config['values']) ?? {})[0]
    case 'template':
      return 'text'
    case 'llm':
    case 'agent':
      return 'response'
    case 'code':
      return 'result'
    case 'http':
      return 'body'
    default:
      return undefined
  }
}

/** `config` with `reference` in its upstream-text field when that is empty; null otherwise. */
function fillTarget(type: string, config: Config, reference: string): Config | null {
  switch (type) {
    case 'template':
      return isBlank(config['template']) ? { ...config, template: reference } : null
    case 'llm':
    case 'agent':
      return isBlank(config['prompt']) ? { ...config, prompt: reference } : null
    case 'output': {
      const values = recordOf(config['values'])
      const empty = Object.keys(values ?? {}).find((key) => isBlank(values?.[key]))
      return values && empty !== undefined ? { ...config, values: { ...values, [empty]: reference } } : null
    }
    default:
      return null
  }
}

/** The target's config after a connection from `source` is drawn; null when nothing changes. */
export function configAfterConnect(source: FlowNode, target: FlowNode): Config | null {
  const field = mainOutputField(source.type, source.data.config)
  if (field === undefined || !/^[A-Za-z_$][\w$]*$/.test(field)) return null
  return fillTarget(target.type, target.data.config, `{{${source.id}.${field}}}`)
}
