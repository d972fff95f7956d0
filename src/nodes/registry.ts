/**
 * Every node type Wardflow knows, in palette order. Pure: the UI reads metadata from here and
 * the runner receives `engineRegistry`. Adding a type = one folder + one line below.
 */
import type { EngineNodeType, NodeRegistry } from '../engine/index.ts'
import type { NodeDefinition } from './types.ts'
import { inputNode } from './input/index.ts'
import { templateNode } from './template/index.ts'
import { llmNode } from './llm/index.ts'
import { agentNode } from './agent/index.ts'
import { codeNode } from './code/index.ts'
import { httpNode } from './http/index.ts'
import { outputNode } from './output/index.ts'
import { noteNode } from './note/index.ts'
import { unsupportedNode } from './unsupported/index.ts'

/** Each definition's config type is erased here; `engine` and `schema` keep it consistent. */
function erase<C>(definition: NodeDefinition<C>): NodeDefinition {
  return definition as unknown as NodeDefinition
}

export const nodeDefinitions: readonly NodeDefinition[] = [
  erase(inputNode),
  erase(templateNode),
  erase(llmNode),
  erase(agentNode),
  erase(codeNode),
  erase(httpNode),
  erase(outputNode),
  erase(noteNode),
  erase(unsupportedNode),
]

const byType: ReadonlyMap<string, NodeDefinition> = new Map(nodeDefinitions.map((d) => [d.type, d]))

/** The definition of `type`, or undefined for a type Wardflow does not know. */
export function getNodeDefinition(type: string): NodeDefinition | undefined {
  return byType.get(type)
}

const BOTH_SIDES: NodeDefinition['handles'] = { input: true, output: true }

/** Which handles a body of `type` has; a type Wardflow does not know keeps both. */
export function handleSides(type: string): NodeDefinition['handles'] {
  return byType.get(type)?.handles ?? BOTH_SIDES
}

/** What `runFlow` and `preflight` receive. */
export const engineRegistry: NodeRegistry = new Map<string, EngineNodeType>(
  nodeDefinitions.map((d) => [d.type, d.engine]),
)
