/**
 * Condition node: tries its cases in order and takes the first that holds (else `else`). Each
 * case is an output handle; the handles not chosen are not taken, so their branches never run.
 */
import {
  DEFAULT_INPUT_PORT,
  defineNodeType,
  type ConfigIssue,
  type NodeExecution,
  type NodePorts,
  type NodeResult,
} from '../../engine/index.ts'
import { zodParser, type NodeDefinition } from '../types.ts'
import { caseHolds, compilePattern, type ResolvedRule } from './evaluate.ts'
import {
  CONDITION_CONFIG_VERSION,
  conditionConfigSchema,
  defaultConditionConfig,
  ELSE_PORT,
  type ConditionCase,
  type ConditionConfig,
  type ConditionRule,
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

/**
 * The console note of a rule that could not compare. Returned rather than declared inline: a
 * named arrow costs a name-keeping call per evaluation under tsx, the CLI's and bench's loader.
 */
function logTo(emit: NodeExecution<ConditionConfig>['emit']): (text: string) => void {
  return (text) => emit.chunk(`${text}\n`, 'log')
}

export async function executeCondition({
  config,
  resolve,
  emit,
}: NodeExecution<ConditionConfig>): Promise<NodeResult> {
  const note = logTo(emit)
  let taken: string = ELSE_PORT
  let value: string | null = null
  // Plain loops, no closures per rule: this runs on every evaluation (bench/condition.bench.ts).
  const { cases } = config
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as ConditionCase
    const rules: ResolvedRule[] = []
    for (let j = 0; j < c.rules.length; j++) {
      const rule = c.rules[j] as ConditionRule
      // Text without a reference is itself: no field path to build, nothing to resolve.
      const value = rule.value.includes('{{')
        ? resolve(rule.value, `cases[${i}].rules[${j}].value`)
        : rule.value
      const to = rule.to.includes('{{') ? resolve(rule.to, `cases[${i}].rules[${j}].to`) : rule.to
      rules.push({ rule, value, to })
    }
    // With no case holding, `value` is the first case's first rule's value.
    if (i === 0) value = rules[0]?.value ?? null
    if (caseHolds(c, rules, note)) {
      taken = c.id
      value = rules[0]?.value ?? null
      break
    }
  }
  emit.chunk(taken, 'output')
  const notTaken: string[] = []
  for (const c of cases) if (c.id !== taken) notTaken.push(c.id)
  if (taken !== ELSE_PORT) notTaken.push(ELSE_PORT)
  return { output: { case: taken, value }, notTaken }
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
  fields: [
    {
      key: 'cases',
      kind: 'json',
      language: 'json',
      labelKey: 'fields:condition.cases.label',
      helpKey: 'fields:condition.cases.help',
    },
  ],
  summary: (config) => [...config.cases.map((c) => c.label?.trim() || c.id), ELSE_PORT].join(' · '),
  palette: { group: 'logic', order: 10 },
  wiring: { mainOutput: () => 'case' },
  engine: defineNodeType<ConditionConfig>({
    type: 'condition',
    parseConfig: zodParser(conditionConfigSchema),
    ports: conditionPorts,
    outputs: () => ['case', 'value'],
    check: badPatterns,
    templates: (config) => config.cases.flatMap((c) => c.rules.flatMap((r) => [r.value, r.to])),
    execute: executeCondition,
  }),
}
