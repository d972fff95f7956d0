/**
 * Agent node: a ReAct tool loop guarded by the token budget, the deadlock breaker, the tool
 * watchdogs and the iteration cap (docs/guard.md). Its protection fields are optional and
 * inherit the global runtime-protection settings when left empty.
 */
import {
  defineNodeType,
  inheritedAgentProtection,
  type ConfigIssue,
  type InheritedSetting,
} from '../../engine/index.ts'
import { firstLine } from '../shared.ts'
import { outputIssues, STRUCTURED_FIELDS, structuredFieldSchemas } from '../structuredOutput.ts'
import { lazyExecutor, zodParser, type InheritGlobals, type NodeDefinition } from '../types.ts'
import { AGENT_CONFIG_VERSION, agentConfigSchema, defaultAgentConfig, type AgentConfig } from './schema.ts'

/**
 * What an Agent's empty fields take: the protection the executor resolves with
 * (`resolveAgentProtection` over the same globals); an empty temperature is not sent, so the
 * provider's default applies.
 */
export function inheritedAgentSettings({ protection }: InheritGlobals): Record<string, InheritedSetting> {
  return { ...inheritedAgentProtection(protection), temperature: { value: undefined, source: 'provider' } }
}

/** Settings a run needs that a parsed config may still leave empty. */
export function checkAgentConfig(config: AgentConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  if (config.prompt.trim() === '')
    issues.push({
      path: 'prompt',
      message: 'Write a prompt for the agent.',
      key: 'nodes:issues.agentPromptMissing',
    })
  config.tools.forEach((tool, i) => {
    const path = `tools[${i}]`
    const number = i + 1
    if (tool.name === '' && tool.kind !== 'mcp')
      issues.push({
        path: `${path}.name`,
        message: `Tool ${number} needs a name.`,
        key: 'nodes:issues.toolNameMissing',
        params: { number },
      })
    const who = tool.name || `Tool ${number}`
    // i18next's context picks the catalogue's wording for an unnamed tool (`..._unnamed`).
    const params = { tool: tool.name, number, context: tool.name === '' ? 'unnamed' : '' }
    const add = (field: string, message: string, key: string): void => {
      issues.push({ path: `${path}.${field}`, message, key, params })
    }
    if (tool.kind === 'code' && (tool.code ?? '').trim() === '')
      add('code', `Write the code of tool "${who}".`, 'nodes:issues.toolCodeMissing')
    if (tool.kind === 'http' && (tool.url ?? '').trim() === '')
      add('url', `Give tool "${who}" a URL.`, 'nodes:issues.toolUrlMissing')
    if (tool.kind === 'node' && (tool.nodeId ?? '').trim() === '')
      add('nodeId', `Choose the node tool "${who}" runs.`, 'nodes:issues.toolNodeMissing')
    if (tool.kind === 'mcp' && (tool.server ?? '').trim() === '')
      add('server', `Choose the MCP server of tool ${number}.`, 'nodes:issues.toolServerMissing')
  })
  return issues
}

export const agentNode: NodeDefinition<AgentConfig> = {
  type: 'agent',
  icon: '⟳',
  color: '#6b46c1',
  labelKey: 'nodes:agent.label',
  descriptionKey: 'nodes:agent.description',
  configVersion: AGENT_CONFIG_VERSION,
  schema: agentConfigSchema,
  defaultConfig: defaultAgentConfig,
  defaultTextKeys: { systemPrompt: 'nodes:agent.defaultSystemPrompt' },
  // The inspector's fields load with the inspector, not with the palette (types.ts).
  fields: () => import('./fields.ts').then((m) => m.AGENT_FIELDS),
  summary: (config) => {
    const prompt = firstLine(config.prompt) || firstLine(config.systemPrompt)
    const tools = config.tools
      .map((t) => (t.kind === 'mcp' ? (t.server ? `mcp:${t.server}` : '') : t.name))
      .filter((n) => n !== '')
    return tools.length === 0 ? prompt : `${prompt}${prompt ? ' · ' : ''}${tools.join(', ')}`
  },
  palette: { group: 'models', order: 20 },
  uses: (config) => ({
    provider: config.provider,
    sandbox: config.tools.some((tool) => tool.kind === 'code'),
    network: config.tools.some((tool) => tool.kind === 'http' || tool.kind === 'mcp'),
  }),
  wiring: {
    mainOutput: (config) => (config.output ? 'data' : 'response'),
    fill: (config, reference) => (config.prompt.trim() === '' ? { prompt: reference } : null),
  },
  inherited: inheritedAgentSettings,
  engine: defineNodeType<AgentConfig>({
    type: 'agent',
    parseConfig: zodParser(agentConfigSchema),
    outputs: (config) => [
      'response',
      'iterations',
      'usage',
      'stopReason',
      'toolCalls',
      ...(config.output ? STRUCTURED_FIELDS : []),
    ],
    fieldSchemas: (config) => structuredFieldSchemas(config.output),
    check: (config) => [...checkAgentConfig(config), ...outputIssues(config.output)],
    // Tool code and schemas are never templated; URLs and header values may be.
    templates: (config) => [
      config.systemPrompt,
      config.prompt,
      config.model,
      ...config.tools.flatMap((t) => [t.url ?? '', ...(t.headers ?? []).map((h) => h.value)]),
    ],
    // `node` tools: the engine keeps unwired targets out of the run and lets them read {{args.x}}.
    toolTargets: (config) => config.tools.flatMap((t) => (t.kind === 'node' && t.nodeId ? [t.nodeId] : [])),
    // Unset means the provider's own temperature, which samples: only 0 repeats itself.
    varies: (config) => config.temperature !== 0,
    execute: lazyExecutor(() => import('./executor.ts').then((m) => m.executeAgent)),
  }),
}
