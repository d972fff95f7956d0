/** One Agent tool, collapsible: its name and kind in the header, every setting inside. */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { engineRegistry } from '../../../nodes/registry.ts'
import { useFlowStore } from '../../../store/flowStore.ts'
import { IconButton } from '../../kit/Button.tsx'
import { Icon } from '../../kit/icons.tsx'
import { LazyCodeEditor } from '../LazyCodeEditor.tsx'
import { JsonEditor } from './JsonField.tsx'
import { McpToolFields } from './McpToolFields.tsx'
import { PairsField } from './PairsField.tsx'

export type Tool = Record<string, unknown>

const KINDS = ['code', 'http', 'node', 'mcp'] as const
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
/** `never` is the default for these kinds, so choosing it removes the key (workflow-format.md). */
const APPROVALS = ['never', 'ask'] as const

export interface ToolCardProps {
  index: number
  tool: Tool
  agentId: string
  open: boolean
  onToggle(): void
  onChange(tool: Tool, subKey: string): void
  onRefuse?(message: string | null): void
  onRemove(): void
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** "id\tlabel\n..." of every other node: a string, so drags of other nodes do not re-render. */
function useOtherNodes(agentId: string): Array<{ id: string; label: string }> {
  const packed = useFlowStore((s) =>
    s.nodes
      .filter((n) => n.id !== agentId && engineRegistry.get(n.type)?.executable === true)
      .map((n) => `${n.id}\t${n.data.label}`)
      .join('\n'),
  )
  return packed === ''
    ? []
    : packed.split('\n').map((line) => {
        const [id = '', label = ''] = line.split('\t')
        return { id, label }
      })
}

export function validateParameters(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'inspector:tools.parametersObject'
  const type = (value as Record<string, unknown>)['type']
  return type === undefined || type === 'object' ? null : 'inspector:tools.parametersObject'
}

export function ToolCard({
  index,
  tool,
  agentId,
  open,
  onToggle,
  onChange,
  onRefuse,
  onRemove,
}: ToolCardProps) {
  const { t } = useTranslation()
  const base = useId()
  const name = str(tool['name'])
  const kind = str(tool['kind']) || 'code'
  const others = useOtherNodes(agentId)
  const set = (key: string, value: unknown): void => onChange({ ...tool, [key]: value }, key)
  const isMcp = kind === 'mcp'
  const server = str(tool['server'])
  // An mcp entry offers the server's tools under their own names: the card is named after it.
  const setApproval = (value: string): void => {
    const { approval: _dropped, ...rest } = tool
    onChange(value === 'ask' ? { ...rest, approval: 'ask' } : rest, 'approval')
  }
  const title = isMcp
    ? server === ''
      ? t('inspector:tools.unnamed', { n: index + 1 })
      : `mcp:${server}`
    : name || t('inspector:tools.unnamed', { n: index + 1 })

  return (
    <div className="wf-tool" data-testid="tool-card" data-open={open || undefined}>
      <div className="wf-tool__head">
        <button type="button" className="wf-tool__toggle" aria-expanded={open} onClick={onToggle}>
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
          <span className="wf-tool__name">{title}</span>
          <span className="wf-tool__kind">{t(`inspector:tools.kind.${kind}`, { defaultValue: kind })}</span>
        </button>
        <IconButton
          icon="trash"
          size="sm"
          label={t('inspector:tools.remove', { name: title })}
          onClick={onRemove}
        />
      </div>
      {open ? (
        <div className="wf-tool__body">
          {isMcp ? null : (
            <>
              <label className="wf-field__label" htmlFor={`${base}-name`}>
                {t('inspector:tools.name')}
              </label>
              <input
                id={`${base}-name`}
                className="wf-input"
                value={name}
                spellCheck={false}
                onChange={(e) => set('name', e.target.value)}
              />
              <label className="wf-field__label" htmlFor={`${base}-description`}>
                {t('inspector:tools.description')}
              </label>
              <textarea
                id={`${base}-description`}
                className="wf-textarea"
                rows={2}
                value={str(tool['description'])}
                onChange={(e) => set('description', e.target.value)}
              />
            </>
          )}
          <label className="wf-field__label" htmlFor={`${base}-kind`}>
            {t('inspector:tools.kindLabel')}
          </label>
          <select
            id={`${base}-kind`}
            className="wf-select"
            value={kind}
            onChange={(e) => set('kind', e.target.value)}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`inspector:tools.kind.${k}`)}
              </option>
            ))}
          </select>
          <label className="wf-field__label" htmlFor={`${base}-approval`}>
            {t('inspector:tools.approvalLabel')}
          </label>
          <select
            id={`${base}-approval`}
            className="wf-select"
            value={tool['approval'] === 'ask' ? 'ask' : 'never'}
            onChange={(e) => setApproval(e.target.value)}
          >
            {APPROVALS.map((a) => (
              <option key={a} value={a}>
                {t(`inspector:tools.approval.${a}`)}
              </option>
            ))}
          </select>
          {isMcp ? <McpToolFields tool={tool} set={set} /> : null}
          {isMcp ? null : (
            <>
              <span className="wf-field__label" id={`${base}-params`}>
                {t('inspector:tools.parameters')}
              </span>
              <JsonEditor
                value={tool['parameters'] ?? { type: 'object', properties: {} }}
                label={t('inspector:tools.parameters')}
                minLines={6}
                onChange={(v) => set('parameters', v)}
                onRefuse={(message) =>
                  onRefuse?.(message === null ? null : t(message, { defaultValue: message }))
                }
                validate={validateParameters}
              />
            </>
          )}
          {kind === 'code' ? (
            <>
              <span className="wf-field__label">{t('inspector:tools.code')}</span>
              <p className="wf-field__help">{t('inspector:tools.codeHelp')}</p>
              <LazyCodeEditor
                value={str(tool['code'])}
                language="javascript"
                ariaLabel={t('inspector:tools.code')}
                minLines={8}
                onChange={(v) => set('code', v)}
              />
            </>
          ) : null}
          {kind === 'http' ? (
            <>
              <label className="wf-field__label" htmlFor={`${base}-method`}>
                {t('inspector:tools.method')}
              </label>
              <select
                id={`${base}-method`}
                className="wf-select"
                value={str(tool['method']) || 'POST'}
                onChange={(e) => set('method', e.target.value)}
              >
                {METHODS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
              <label className="wf-field__label" htmlFor={`${base}-url`}>
                {t('inspector:tools.url')}
              </label>
              <input
                id={`${base}-url`}
                className="wf-input"
                type="url"
                value={str(tool['url'])}
                spellCheck={false}
                onChange={(e) => set('url', e.target.value)}
              />
              <span className="wf-field__label">{t('inspector:tools.headers')}</span>
              <PairsField
                nodeId={agentId}
                inputId={`${base}-headers`}
                label={t('inspector:tools.headers')}
                field={{ key: 'headers', kind: 'keyValues', labelKey: 'inspector:tools.headers' }}
                value={tool['headers'] ?? []}
                config={tool}
                onChange={(v) => set('headers', v)}
              />
            </>
          ) : null}
          {kind === 'node' ? (
            <>
              <label className="wf-field__label" htmlFor={`${base}-node`}>
                {t('inspector:tools.node')}
              </label>
              <select
                id={`${base}-node`}
                className="wf-select"
                value={str(tool['nodeId'])}
                onChange={(e) => set('nodeId', e.target.value)}
              >
                <option value="">{t('inspector:tools.pickNode')}</option>
                {others.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.label === n.id ? n.id : `${n.label} (${n.id})`}
                  </option>
                ))}
              </select>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
