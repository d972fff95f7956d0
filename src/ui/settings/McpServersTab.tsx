/**
 * MCP servers (flow-control.md, "MCP tools and approval"): the list, add / edit / delete, and a
 * Test that connects and lists the tools or says why it cannot (mcpCheckText.ts). Header values
 * are secrets: masked, stored with the API keys, never listed.
 */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpCheck } from '../../mcp/diagnose.ts'
import type { AppSettings, McpServerSettings } from '../../settings/schema.ts'
import { useSettings } from '../../store/settingsStore.ts'
import { Button } from '../kit/Button.tsx'
import type { SettingsPanelApi } from './api.ts'
import { errorText } from './errorText.ts'
import { FormStatus, type FormOutcome } from './FormStatus.tsx'
import { HeadersEditor } from './HeadersEditor.tsx'
import { McpCheckResult } from './McpCheckResult.tsx'

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

type Editing = { index: number; server: McpServerSettings } | null

function withServer(settings: AppSettings, index: number, server: McpServerSettings): AppSettings {
  const mcpServers = [...settings.mcpServers]
  if (index >= 0) mcpServers[index] = server
  else mcpServers.push(server)
  return { ...settings, mcpServers }
}

function freshId(taken: readonly string[]): string {
  for (let n = 1; ; n++) {
    const id = n === 1 ? 'mcp' : `mcp-${n}`
    if (!taken.includes(id)) return id
  }
}

export function McpServersTab({ api }: { api: SettingsPanelApi }) {
  const { t, i18n } = useTranslation('settings')
  const settings = useSettings((s) => s)
  const [editing, setEditing] = useState<Editing>(null)
  const [status, setStatus] = useState<FormOutcome | null>(null)

  function apply(next: AppSettings, after?: () => void): void {
    api
      .save(next)
      .then(() => {
        setStatus({ ok: true, text: t('common.saved') })
        after?.()
      })
      .catch((error: unknown) => setStatus({ ok: false, text: errorText(t, i18n, error) }))
  }

  if (editing !== null) {
    const otherIds = settings.mcpServers.filter((_, i) => i !== editing.index).map((s) => s.id)
    return (
      <McpServerForm
        api={api}
        initial={editing.server}
        otherIds={otherIds}
        onCancel={() => setEditing(null)}
        onSave={(server) => apply(withServer(settings, editing.index, server), () => setEditing(null))}
      />
    )
  }

  return (
    <section className="wf-settings-section" data-testid="mcp-servers">
      <p className="wf-settings-hint">{t('mcp.intro')}</p>
      {settings.mcpServers.length === 0 ? <p className="wf-settings-hint">{t('mcp.none')}</p> : null}
      <ul className="wf-provider-list" aria-label={t('mcp.listLabel')}>
        {settings.mcpServers.map((server, index) => (
          <li key={server.id} data-testid="mcp-server-item" data-server-id={server.id}>
            <div className="wf-provider-list__text">
              <strong>{server.name || server.id}</strong>
              <span className="wf-settings-hint">
                {server.id} · {server.url}
                {server.headers.length > 0
                  ? ` · ${t('mcp.headerCount', { count: server.headers.length })}`
                  : ''}
              </span>
            </div>
            <Button size="sm" icon="edit" onClick={() => setEditing({ index, server })}>
              {t('mcp.edit', { name: server.name || server.id })}
            </Button>
            <Button
              size="sm"
              variant="danger"
              icon="trash"
              onClick={() =>
                apply({ ...settings, mcpServers: settings.mcpServers.filter((_, i) => i !== index) })
              }
            >
              {t('mcp.remove', { name: server.name || server.id })}
            </Button>
          </li>
        ))}
      </ul>
      <div className="wf-settings-actions">
        <FormStatus status={status} />
        <Button
          icon="plus"
          variant="primary"
          data-testid="mcp-server-add"
          onClick={() =>
            setEditing({
              index: -1,
              server: { id: freshId(settings.mcpServers.map((s) => s.id)), name: '', url: '', headers: [] },
            })
          }
        >
          {t('mcp.add')}
        </Button>
      </div>
    </section>
  )
}

interface FormProps {
  api: SettingsPanelApi
  initial: McpServerSettings
  otherIds: readonly string[]
  onCancel(): void
  onSave(server: McpServerSettings): void
}

function McpServerForm({ api, initial, otherIds, onCancel, onSave }: FormProps) {
  const { t, i18n } = useTranslation('settings')
  const [draft, setDraft] = useState(initial)
  const [check, setCheck] = useState<McpCheck | 'testing' | null>(null)
  const [failure, setFailure] = useState<FormOutcome | null>(null)
  const base = useId()
  const idProblem = !ID_PATTERN.test(draft.id) ? 'id' : otherIds.includes(draft.id) ? 'idTaken' : undefined
  const urlProblem = /^https?:\/\/\S+$/i.test(draft.url.trim()) ? undefined : 'url'

  async function test(): Promise<void> {
    setCheck('testing')
    setFailure(null)
    try {
      setCheck(await api.testMcpServer({ ...draft, url: draft.url.trim() }))
    } catch (error) {
      setCheck(null)
      setFailure({ ok: false, text: errorText(t, i18n, error) })
    }
  }

  return (
    <form
      className="wf-settings-section"
      data-testid="mcp-server-form"
      onSubmit={(e) => {
        e.preventDefault()
        if (idProblem === undefined && urlProblem === undefined) onSave({ ...draft, url: draft.url.trim() })
      }}
    >
      <div className="wf-field">
        <label htmlFor={`${base}-name`}>{t('mcp.name')}</label>
        <input
          id={`${base}-name`}
          className="wf-input"
          data-testid="mcp-server-name"
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
      </div>
      <div className="wf-field">
        <label htmlFor={`${base}-id`}>{t('mcp.id')}</label>
        <input
          id={`${base}-id`}
          className="wf-input"
          data-testid="mcp-server-id"
          spellCheck={false}
          value={draft.id}
          aria-invalid={idProblem !== undefined}
          onChange={(e) => setDraft({ ...draft, id: e.target.value.trim() })}
        />
        {idProblem !== undefined ? (
          <span className="wf-field-error">{t(`mcp.problems.${idProblem}`)}</span>
        ) : null}
      </div>
      <div className="wf-field">
        <label htmlFor={`${base}-url`}>{t('mcp.url')}</label>
        <input
          id={`${base}-url`}
          className="wf-input"
          data-testid="mcp-server-url"
          spellCheck={false}
          placeholder="http://localhost:3001/mcp"
          value={draft.url}
          aria-invalid={urlProblem !== undefined && draft.url !== ''}
          onChange={(e) => setDraft({ ...draft, url: e.target.value })}
        />
        {urlProblem !== undefined && draft.url !== '' ? (
          <span className="wf-field-error">{t('mcp.problems.url')}</span>
        ) : null}
      </div>
      <HeadersEditor
        headers={draft.headers}
        allSecret
        testId="mcp-server-headers"
        onChange={(headers) => setDraft({ ...draft, headers })}
      />
      <div className="wf-settings-actions">
        <Button
          data-testid="mcp-server-test"
          disabled={urlProblem !== undefined || check === 'testing'}
          onClick={() => void test()}
        >
          {check === 'testing' ? t('mcp.testing') : t('mcp.test')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button
          type="submit"
          variant="primary"
          data-testid="mcp-server-save"
          disabled={idProblem !== undefined || urlProblem !== undefined}
        >
          {t('common.save')}
        </Button>
      </div>
      <FormStatus status={failure} block />
      {check !== null && check !== 'testing' ? <McpCheckResult check={check} /> : null}
    </form>
  )
}
