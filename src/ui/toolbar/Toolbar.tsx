/**
 * The top bar: flow name and save state; edit, view and run commands; import/export, language,
 * shortcuts and settings. Buttons whose service is not installed yet stay visible but disabled.
 */
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useServices } from '../services.ts'
import { useCanRedo, useCanUndo, useFlowStore, useReadOnly } from '../../store/flowStore.ts'
import { useStore } from 'zustand'
import { isRunActive, runStore } from '../../store/runStore.ts'
import { useUi, uiStore } from '../../store/uiStore.ts'
import { useCanvasCommands } from '../canvas/commands.ts'
import { Button, IconButton } from '../kit/Button.tsx'
import { Icon } from '../kit/icons.tsx'
import { FlowName } from './FlowName.tsx'
import { LanguageSelect } from './LanguageSelect.tsx'
import { SaveIndicator } from './SaveIndicator.tsx'
import { ThemeToggle } from './ThemeToggle.tsx'
import { TemplatesButton } from '../templates/TemplatesButton.tsx'
import { KnowledgeButton } from '../knowledge/KnowledgeButton.tsx'
import { usePrefetchArea } from '../usePrefetchArea.ts'

export function Toolbar() {
  const { t } = useTranslation()
  const services = useServices()
  const commands = useCanvasCommands()
  const canUndo = useCanUndo()
  const canRedo = useCanRedo()
  // A past run is a view: edits are off (the store refuses them too).
  const readOnly = useReadOnly()
  const hasSelection = useFlowStore((s) => s.selectedNodeIds.size > 0) && !readOnly
  const hasNodes = useFlowStore((s) => s.nodes.length > 0) && !readOnly
  const snap = useUi((s) => s.snapToGrid)
  const layout = useUi((s) => s.layout)
  const running = useStore(runStore, (s) => isRunActive(s.phase))
  const fileInput = useRef<HTMLInputElement>(null)
  const runArea = usePrefetchArea('runs')
  const workflowsArea = usePrefetchArea('workflows')
  const settingsArea = usePrefetchArea('settings')
  const batchArea = usePrefetchArea('batch')

  return (
    <header className="wf-toolbar" role="toolbar" aria-label={t('toolbar.label')}>
      <div className="wf-toolbar__brand">
        <span className="wf-logo" aria-hidden="true">
          <Icon name="shield" size={18} />
        </span>
        <span className="wf-brand-name">Wardflow</span>
      </div>
      <FlowName />
      <SaveIndicator />
      <div className="wf-toolbar__group" aria-label={t('toolbar.edit')} role="group">
        <IconButton
          icon="undo"
          label={t('toolbar.undo')}
          data-testid="undo"
          disabled={!canUndo}
          onClick={commands.undo}
        />
        <IconButton
          icon="redo"
          label={t('toolbar.redo')}
          data-testid="redo"
          disabled={!canRedo}
          onClick={commands.redo}
        />
        <IconButton
          icon="copy"
          label={t('toolbar.duplicate')}
          data-testid="duplicate-selection"
          disabled={!hasSelection}
          onClick={commands.duplicateSelection}
        />
        <IconButton
          icon="trash"
          label={t('toolbar.delete')}
          disabled={!hasSelection}
          onClick={commands.removeSelection}
        />
      </div>
      <div className="wf-toolbar__group" aria-label={t('toolbar.view')} role="group">
        <IconButton
          icon="layout"
          label={t('toolbar.autoLayout')}
          data-testid="auto-layout"
          disabled={!hasNodes}
          onClick={() => void commands.autoLayout()}
        />
        <IconButton icon="fit" label={t('toolbar.fitView')} onClick={commands.fitView} />
        <IconButton
          icon="grid"
          label={t('toolbar.snap')}
          data-testid="toggle-snap"
          aria-pressed={snap}
          onClick={() => uiStore.getState().toggleSnap()}
        />
        <IconButton
          icon="panelLeft"
          label={t('toolbar.leftPanel')}
          data-testid="toggle-left-panel"
          aria-pressed={!layout.leftHidden}
          onClick={() => uiStore.getState().setLayout({ leftHidden: !layout.leftHidden })}
        />
        <IconButton
          icon="panelRight"
          label={t('toolbar.rightPanel')}
          data-testid="toggle-right-panel"
          aria-pressed={!layout.rightHidden}
          onClick={() => uiStore.getState().setLayout({ rightHidden: !layout.rightHidden })}
        />
      </div>
      <div className="wf-toolbar__spacer" />
      <div className="wf-toolbar__group" role="group" aria-label={t('toolbar.run')}>
        <Button
          variant="primary"
          icon="play"
          data-testid="run-flow"
          {...runArea}
          disabled={!services.run || running}
          onClick={() => services.run?.run()}
        >
          {t('toolbar.runFlow')}
        </Button>
        <Button
          icon="stop"
          data-testid="stop-flow"
          disabled={!services.run || !running}
          onClick={() => services.run?.stop()}
        >
          {t('toolbar.stopFlow')}
        </Button>
      </div>
      <div className="wf-toolbar__group" role="group" aria-label={t('toolbar.files')}>
        <TemplatesButton />
        <KnowledgeButton />
        <Button
          variant="ghost"
          data-testid="batch-open"
          {...batchArea}
          onClick={() => services.batch?.open()}
        >
          {t('toolbar.batch')}
        </Button>
        <IconButton
          icon="upload"
          label={t('toolbar.import')}
          data-testid="import-workflow"
          {...workflowsArea}
          disabled={!services.import}
          onClick={() => fileInput.current?.click()}
        />
        <input
          ref={fileInput}
          id="import-workflow-input"
          data-testid="import-workflow-input"
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) void services.import?.importFile(file)
          }}
        />
        <IconButton
          icon="download"
          label={t('toolbar.export')}
          data-testid="export-workflow"
          {...workflowsArea}
          disabled={!services.export}
          onClick={() => void services.export?.exportWorkflow()}
        />
      </div>
      <div className="wf-toolbar__group" role="group" aria-label={t('toolbar.app')}>
        <LanguageSelect />
        <ThemeToggle />
        <IconButton
          icon="keyboard"
          label={t('toolbar.shortcuts')}
          data-testid="open-shortcuts"
          onClick={() => uiStore.getState().setShortcutsOpen(true)}
        />
        <IconButton
          icon="settings"
          label={t('toolbar.settings')}
          data-testid="open-settings"
          {...settingsArea}
          disabled={!services.settings}
          onClick={() => services.settings?.open()}
        />
      </div>
    </header>
  )
}
