/**
 * Whatever breaks rendering one flow must not break the app: the canvas and the inspector each
 * sit in this boundary. When a render throws, the boundary shows what failed and offers a way
 * out (export the flow as it is, start a new flow, try again); the flow list beside it keeps
 * working, so any other flow opens as usual, and opening one resets the boundary. Without it
 * React unmounts the whole page, and a flow that reopens at start would leave it blank for good.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import { Button } from './Button.tsx'
import { Icon } from './icons.tsx'

interface BoundaryProps {
  /** Which part of the screen this is (for the message): `canvas` or `inspector`. */
  part: 'canvas' | 'inspector'
  /** A change (another flow opened) clears a caught error. */
  resetKey: string | null
  children: ReactNode
}

interface BoundaryState {
  error: Error | null
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null }

  static getDerivedStateFromError(thrown: unknown): BoundaryState {
    return { error: thrown instanceof Error ? thrown : new Error(String(thrown)) }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console keeps the component stack for a bug report; the page shows the message.
    console.warn(`Wardflow could not show the ${this.props.part}:`, error, info.componentStack)
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (this.state.error !== null && previous.resetKey !== this.props.resetKey) this.setState({ error: null })
  }

  override render(): ReactNode {
    const { error } = this.state
    if (error === null) return this.props.children
    return <BrokenFlow part={this.props.part} error={error} retry={() => this.setState({ error: null })} />
  }
}

function BrokenFlow({
  part,
  error,
  retry,
}: {
  part: BoundaryProps['part']
  error: Error
  retry: () => void
}) {
  const { t } = useTranslation()
  const services = useServices()
  const exportFlow = services.export?.exportWorkflow
  return (
    <div className={`wf-broken wf-broken--${part}`} role="alert" data-testid="flow-broken" data-part={part}>
      <span className="wf-broken__icon" aria-hidden="true">
        <Icon name="error" />
      </span>
      <strong>{t(`broken.title.${part}`)}</strong>
      <p>{t('broken.body')}</p>
      <pre className="wf-broken__error" data-testid="flow-broken-error">
        {error.message || error.name}
      </pre>
      <div className="wf-broken__actions">
        {exportFlow ? (
          <Button
            variant="primary"
            icon="download"
            onClick={() => void exportFlow()}
            data-testid="flow-broken-export"
          >
            {t('broken.export')}
          </Button>
        ) : null}
        <Button onClick={() => void services.flows.create()} data-testid="flow-broken-new">
          {t('broken.newFlow')}
        </Button>
        <Button variant="ghost" onClick={retry} data-testid="flow-broken-retry">
          {t('broken.retry')}
        </Button>
      </div>
    </div>
  )
}

/** The boundary around one part of the open flow's screen; it resets when another flow opens. */
export function FlowBoundary({ part, children }: Omit<BoundaryProps, 'resetKey'>) {
  const flowId = useFlowStore((s) => s.flowId)
  return (
    <Boundary part={part} resetKey={flowId}>
      {children}
    </Boundary>
  )
}
