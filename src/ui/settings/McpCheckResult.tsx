/**
 * What an MCP server check found: its tools (names and descriptions as plain text; a server's
 * words are never HTML), or why it cannot be used with the fix on the server's side.
 */
import { useTranslation } from 'react-i18next'
import { MCP_DESCRIPTION_PREVIEW_CHARS } from '../../defaults.ts'
import type { McpCheck } from '../../mcp/diagnose.ts'

function preview(text: string): string {
  return text.length > MCP_DESCRIPTION_PREVIEW_CHARS
    ? `${text.slice(0, MCP_DESCRIPTION_PREVIEW_CHARS)}…`
    : text
}

export function McpCheckResult({ check }: { check: McpCheck }) {
  const { t } = useTranslation('settings')
  if (check.ok) {
    return (
      <div className="wf-settings-ok" role="status" data-testid="mcp-server-test-result" data-ok="true">
        <p>{t('mcp.check.ok', { count: check.tools.length })}</p>
        <ul className="wf-mcp-tools">
          {check.tools.map((tool) => (
            <li key={tool.name} data-testid="mcp-server-tool">
              <code>{tool.name}</code>
              {tool.description === '' ? null : <span> — {preview(tool.description)}</span>}
            </li>
          ))}
        </ul>
      </div>
    )
  }
  const words =
    check.reason === 'http'
      ? t('mcp.check.http', { status: check.status, detail: check.detail || '—' })
      : check.reason === 'corsHeaders'
        ? t('mcp.check.corsHeaders', { headers: check.headers.join(', ') })
        : check.reason === 'failed'
          ? t('mcp.check.failed', { detail: check.detail })
          : t(`mcp.check.${check.reason}`)
  return (
    <p
      className="wf-settings-error"
      role="alert"
      data-testid="mcp-server-test-result"
      data-ok="false"
      data-reason={check.reason}
    >
      {words}
    </p>
  )
}
