/**
 * Code node: JavaScript in the sandbox. The code is never templated (that would be
 * evaluation); it reads upstream values through `inputs` instead.
 */
import {
  defineNodeType,
  inheritedProtection,
  valueToText,
  type NodeExecution,
  type NodeResult,
} from '../../engine/index.ts'
import { firstLine } from '../shared.ts'
import { effectiveSetting, zodParser, type InheritGlobals, type NodeDefinition } from '../types.ts'
import { CODE_CONFIG_VERSION, codeConfigSchema, defaultCodeConfig, type CodeConfig } from './schema.ts'

/** What a Code node's empty fields take: its timeout is the sandbox timeout of Settings. */
export function inheritedCodeSettings({ protection }: InheritGlobals) {
  return { timeoutMs: inheritedProtection(protection).sandboxTimeoutMs }
}

export async function executeCode({
  config,
  ctx,
  signal,
  emit,
  inputs,
}: NodeExecution<CodeConfig>): Promise<NodeResult> {
  const { result, logs } = await ctx.codeRunner.run({
    code: config.code,
    bindings: { inputs: inputs ?? {} },
    timeoutMs: effectiveSetting(config.timeoutMs, inheritedCodeSettings(ctx).timeoutMs),
    signal,
  })
  for (const line of logs) emit.chunk(`${line}\n`, 'log')
  emit.chunk(valueToText(result), 'output')
  return { output: { result, logs } }
}

export const codeNode: NodeDefinition<CodeConfig> = {
  type: 'code',
  icon: '{}',
  color: '#c05621',
  labelKey: 'nodes:code.label',
  descriptionKey: 'nodes:code.description',
  configVersion: CODE_CONFIG_VERSION,
  schema: codeConfigSchema,
  defaultConfig: defaultCodeConfig,
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.CODE_FIELDS),
  summary: (config) =>
    firstLine(
      config.code
        .split('\n')
        .filter((l) => !l.trim().startsWith('//'))
        .join('\n'),
    ),
  palette: { group: 'actions', order: 10 },
  uses: () => ({ sandbox: true }),
  wiring: { mainOutput: () => 'result' },
  inherited: inheritedCodeSettings,
  engine: defineNodeType<CodeConfig>({
    type: 'code',
    parseConfig: zodParser(codeConfigSchema),
    outputs: () => ['result', 'logs'],
    check: (config) =>
      config.code.trim() === ''
        ? [{ path: 'code', message: 'Write the code to run.', key: 'nodes:issues.codeMissing' }]
        : [],
    templates: () => [],
    execute: executeCode,
  }),
}
