/**
 * Condition node: tries its cases in order and takes the first that holds (else `else`). Each
 * case is an output handle; the handles not chosen are not taken, so their branches never run.
 */
import { DEFAULT_INPUT_PORT, defineNodeType, type ConfigIssue, type NodePorts } from '../../engine/index.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import {
  compilePattern,
  CONDITION_CONFIG_VERSION,
  conditionConfigSchema,
  defaultConditionConfig,
  ELSE_PORT,
  type ConditionConfig,
} from './schema.ts'

export function conditionPorts(config: ConditionConfig): NodePorts {
  return {
    inputs: [{ id: DEFAULT_INPUT_PORT }],
    outputs: [
      ...config.cases.map((c) => ({ id: c.id, label: c.label?.trim() || c.id })),
      { id: ELSE_PORT, labelKey: 'nodes:condition.else' },
    ],
  }
}

/** A `matches` rule whose pattern is not a valid regular expression: refused at preflight. */
function badPatterns(config: ConditionConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  config.cases.forEach((c, i) =>
    c.rules.forEach((rule, j) => {
      if (rule.op !== 'matches' || rule.to.includes('{{')) return
      const pattern = compilePattern(rule)
      if (typeof pattern === 'string')
        issues.push({
          path: `cases[${i}].rules[${j}].to`,
          message: `Not a valid regular expression: ${pattern}`,
          key: 'nodes:issues.conditionBadPattern',
          params: { detail: pattern },
        })
    }),
  )
  return issues
}

export const conditionNode: NodeDefinition<ConditionConfig> = {
  type: 'condition',
  icon: '⑂',
  color: '#2b6cb0',
  labelKey: 'nodes:condition.label',
  descriptionKey: 'nodes:condition.description',
  configVersion: CONDITION_CONFIG_VERSION,
  schema: conditionConfigSchema,
  defaultConfig: defaultConditionConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.CONDITION_FIELDS),
  summary: (config) => [...config.cases.map((c) => c.label?.trim() || c.id), ELSE_PORT].join(' · '),
  palette: { group: 'logic', order: 10 },
  wiring: { mainOutput: () => 'case' },
  takenOutputs: (output) => (typeof output['case'] === 'string' ? [output['case']] : undefined),
  engine: defineNodeType<ConditionConfig>({
    type: 'condition',
    parseConfig: zodParser(conditionConfigSchema),
    ports: conditionPorts,
    outputs: () => ['case', 'value'],
    check: badPatterns,
    templates: (config) => config.cases.flatMap((c) => c.rules.flatMap((r) => [r.value, r.to])),
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeCondition)),
  }),
}
