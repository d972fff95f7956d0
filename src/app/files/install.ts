/**
 * Plugs workflow import (file chooser, a file dropped on the canvas, PatchCat files) and export
 * into the app. An area loaded on first use (app/areas.ts): the file formats' code loads on first use.
 */
import type { AppCore, Installed } from '../core/createApp.ts'
import { createWorkflowIoService } from './importExportService.ts'
import type { AppServices } from '../../ui/services.ts'

/** The import/export installer for app/areas.ts. */
export function installWorkflows(core: AppCore, services: AppServices): Installed {
  const workflows = createWorkflowIoService({ db: core.db, flows: services.flows, flowStore: core.flows })
  return { services: { import: workflows, export: workflows } }
}
