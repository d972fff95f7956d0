/**
 * Sub-flow node: runs another flow as one step. Its inputs fill the called flow's Input keys,
 * its output is the called flow's Output values merged by key (engine/subflow.ts runs it).
 */
import { defineNodeType } from '../../engine/index.ts'
import { lazyExecutor, zodParser, type NodeDefinition } from '../types.ts'
import {
  defaultSubflowConfig,
  SUBFLOW_CONFIG_VERSION,
  subflowConfigSchema,
  type SubflowConfig,
} from './schema.ts'

export const subflowNode: NodeDefinition<SubflowConfig> = {
  type: 'subflow',
  icon: '⧉',
  color: '#805ad5',
  labelKey: 'nodes:subflow.label',
  descriptionKey: 'nodes:subflow.description',
  configVersion: SUBFLOW_CONFIG_VERSION,
  schema: subflowConfigSchema,
  defaultConfig: defaultSubflowConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.SUBFLOW_FIELDS),
  summary: (config) => config.flow,
  palette: { group: 'logic', order: 40 },
  wiring: {
    // The first empty input takes what is drawn into the node.
    fill: (config, reference) => {
      const empty = Object.keys(config.inputs).find((key) => config.inputs[key]?.trim() === '')
      return empty === undefined ? null : { inputs: { ...config.inputs, [empty]: reference } }
    },
  },
  retargetFlow: (config, flow) => ({ ...config, flow }),
  engine: defineNodeType<SubflowConfig>({
    type: 'subflow',
    parseConfig: zodParser(subflowConfigSchema),
    // The called flow's Output keys, which preflight reads through its flow lookup.
    outputs: () => undefined,
    callsFlow: (config) => config.flow,
    check: (config) =>
      config.flow.trim() === ''
        ? [{ path: 'flow', message: 'Pick the flow to run.', key: 'nodes:issues.subflowMissing' }]
        : [],
    templates: (config) => Object.values(config.inputs),
    execute: lazyExecutor(() => import('./execute.ts').then((m) => m.executeSubflow)),
  }),
}
