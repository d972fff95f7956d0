/**
 * An Agent tool of kind `mcp`: which saved MCP server (settings) and, optionally, which of its
 * tools the model sees (`include`; all when none is ticked). The server's tool list is fetched
 * only when asked (the settings check, loaded on first use); names and descriptions are text.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpCheck, McpCheckTool } from '../../../mcp/diagnose.ts'
import { useSettings } from '../../../store/settingsStore.ts'
import { Button } from '../../kit/Button.tsx'
import { useServices } from '../../services.ts'
import { McpCheckResult } from '../../settings/McpCheckResult.tsx'
import type { Tool } from './ToolCard.tsx'

export interface McpToolFieldsProps {
  tool: Tool
  set(key: string, value: unknown): void
}

type Listing = { server: string; check: McpCheck | 'loading' | 'unavailable' }

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** `include` after ticking or unticking `name`; undefined (all tools) when none is left. */
export function toggleInclude(include: readonly string[], name: string, on: boolean): string[] | undefined {
  const next = on ? [...include.filter((n) => n !== name), name] : include.filter((n) => n !== name)
  return next.length === 0 ? undefined : next
}

export function McpToolFields({ tool, set }: McpToolFieldsProps) {
  const { t } = useTranslation()
  const base = useId()
  const servers = useSettings((s) => s.mcpServers)
  const settingsService = useServices().settings
  const server = typeof tool['server'] === 'string' ? tool['server'] : ''
  const include = strings(tool['include'])
  const [listing, setListing] = useState<Listing | null>(null)
  const known = server === '' || servers.some((s) => s.id === server)
  const shown = listing !== null && listing.server === server ? listing.check : null

  async function loadTools(): Promise<void> {
    setListing({ server, check: 'loading' })
    const check = await settingsService?.checkMcpServer?.(server).catch(() => undefined)
    setListing({ server, check: check ?? 'unavailable' })
  }

  const names: McpCheckTool[] =
    shown !== null && typeof shown === 'object' && shown.ok
      ? shown.tools
      : include.map((name) => ({ name, description: '' }))

  return (
    <>
      <label className="wf-field__label" htmlFor={`${base}-server`}>
        {t('inspector:tools.mcpServer')}
      </label>
      <select
        id={`${base}-server`}
        className="wf-select"
        data-testid="tool-mcp-server"
        value={server}
        onChange={(e) => {
          set('server', e.target.value)
        }}
      >
        <option value="">{t('inspector:tools.pickMcpServer')}</option>
        {!known ? (
          <option value={server}>{t('inspector:tools.missingMcpServer', { id: server })}</option>
        ) : null}
        {servers.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name === '' || s.name === s.id ? s.id : `${s.name} (${s.id})`}
          </option>
        ))}
      </select>
      {servers.length === 0 ? <p className="wf-field__help">{t('inspector:tools.noMcpServers')}</p> : null}
      <fieldset className="wf-tool__mcp" data-testid="tool-mcp-include">
        <legend className="wf-field__label">{t('inspector:tools.mcpInclude')}</legend>
        <p className="wf-field__help">{t('inspector:tools.mcpIncludeHelp')}</p>
        {names.map((item) => (
          <label key={item.name} className="wf-check" title={item.description}>
            <input
              type="checkbox"
              checked={include.includes(item.name)}
              onChange={(e) => set('include', toggleInclude(include, item.name, e.target.checked))}
            />
            <span>{item.name}</span>
          </label>
        ))}
        <Button
          size="sm"
          data-testid="tool-mcp-load"
          disabled={server === '' || !known || shown === 'loading'}
          onClick={() => void loadTools()}
        >
          {shown === 'loading' ? t('inspector:tools.mcpLoading') : t('inspector:tools.mcpLoad')}
        </Button>
        {shown === 'unavailable' ? (
          <p className="wf-field__help" role="status">
            {t('inspector:tools.mcpUnavailable')}
          </p>
        ) : null}
        {shown !== null && typeof shown === 'object' && !shown.ok ? <McpCheckResult check={shown} /> : null}
      </fieldset>
    </>
  )
}
