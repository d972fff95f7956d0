/**
 * What the UI may ask the rest of the app to do. ui/ never touches storage, providers or the
 * sandbox: it calls these services, which app/ implements and hands down through a context.
 * Optional members are filled in by the areas that own them (runs, import/export, settings,
 * templates); the UI hides or disables what is missing. An area that loads on first use
 * publishes stand-ins at once (createApp.ts), so its controls work from the first paint.
 */
import { createContext, useContext } from 'react'
import type { AreaName } from '../store/areaStore.ts'
import type { SettingsPanelApi } from './settings/api.ts'
import type { McpCheck } from '../mcp/diagnose.ts'

export interface FlowsService {
  /** Creates an empty flow, saves it and opens it. */
  create(name?: string): Promise<void>
  /** Saves the open flow first, then opens `id`. */
  open(id: string): Promise<void>
  rename(id: string, name: string): Promise<void>
  /** Copies a flow ("Name (copy)") and opens the copy. */
  duplicate(id: string): Promise<void>
  /** Deletes a flow and its run history; opens another (or a new one) if it was open. */
  remove(id: string): Promise<void>
  /** Writes any pending autosave now. */
  flush(): Promise<void>
  /** A saved flow's Input and Output keys (a Sub-flow node maps them); null when it is not saved. */
  describe?(id: string): Promise<FlowInterface | null>
}

/** What a flow takes and returns, as a Sub-flow node calling it sees it. */
export interface FlowInterface {
  inputKeys: readonly string[]
  outputKeys: readonly string[]
}

export interface RunService {
  run(): void
  /**
   * Runs from a node (node-actions): `fromHere` re-runs it and what depends on it, `node` runs it
   * alone; everything else reuses the open past run's results, or the latest run's.
   */
  runFrom?(nodeId: string, mode: 'fromHere' | 'node'): void
  stop(): void
  /** Shows a saved run of the open flow read-only on the canvas (run history). */
  openRun?(id: string): Promise<void>
  /** Back from a saved run to the live canvas. */
  showLive?(): void
  /** Reloads the open flow's run history (e.g. after the danger zone cleared it). */
  refreshHistory?(): Promise<void>
  /**
   * Forks a saved run: a new flow made of the run's flow as it ran, opened; its runs reuse the
   * run's results for what is unchanged until it has a run of its own. The run stays untouched.
   */
  fork?(runId: string): Promise<void>
  /** What differs from a saved run's flow to the live flow; null when the record kept no copy. */
  pastRunDiff?(runId: string): Promise<PastRunDiff | null>
  /**
   * Downloads a saved run's trace as OTLP JSON (flow-control.md "Traces"). Prompts, replies and
   * tool data only with `content`; keys and secret header values never.
   */
  downloadTrace?(runId: string, content: boolean): Promise<void>
  /**
   * Downloads a saved run as a cassette (`<flow name>.cassette.json`) that `wardflow run
   * --replay` and `wardflow test` play with no network; keys and headers never in it.
   */
  downloadCassette?(runId: string): Promise<void>
  /** A saved run's model calls of one node, as they were asked and answered (keys scrubbed). */
  modelCalls?(runId: string, nodeId: string): Promise<ModelCallView[]>
}

/** One model call as the node details list it (the record's `modelCall` event, keys scrubbed). */
export interface ModelCallView {
  startedAt: number
  /** When the call ended (ms since epoch). */
  at: number
  provider: string
  model: string
  responseModel?: string
  usage?: { prompt: number; completion: number }
  finishReason?: string
  error?: string
  /** What was sent: messages, tool names and parameters. */
  request: { messages: unknown[]; tools?: string[]; temperature?: number; maxTokens?: number }
  /** The raw reply: its text and tool calls. */
  reply?: { text: string; toolCalls: unknown[] }
}

/** A node as a difference names it. */
export interface DiffNode {
  id: string
  type: string
  label: string
}

/** What differs from a past run's flow to the live one (app/runs/runDiff.ts). */
export interface PastRunDiff {
  added: DiffNode[]
  removed: DiffNode[]
  changed: Array<DiffNode & { changes: string[] }>
  edgesAdded: number
  edgesRemoved: number
}

export interface ImportService {
  /** Imports a workflow file (from the file chooser or dropped on the canvas) as a new flow. */
  importFile(file: File): Promise<void>
}

export interface ExportService {
  /** Downloads the open flow as a `*.wardflow.json` file. */
  exportWorkflow(): Promise<void> | void
}

export interface SettingsService {
  open(): void
  /**
   * Connects to the saved MCP server `id` and lists its tools (the inspector's tool picker);
   * undefined when there is no such server or the settings code failed to load.
   */
  checkMcpServer?(id: string): Promise<McpCheck | undefined>
}

export interface TemplatesService {
  /** Opens the gallery (loading the list, or retrying after a failure). */
  openGallery(): void
  /** Opens the stuck-agent template (the loop breaker demo). */
  openLoopBreaker(): void
  /** Opens one template of the gallery as a new flow; true once it is open. */
  openTemplate?(id: string): Promise<boolean>
}

/**
 * How a base's chunks get vectors for vector search: none (keywords only), the demo's local
 * vectors (offline), or a provider's embeddings model (OpenAI-compatible `/embeddings`, Ollama).
 */
export type KnowledgeEmbeddingChoice =
  { kind: 'none' } | { kind: 'demo' } | { kind: 'provider'; providerId: string; model: string }

/** A knowledge base as the Knowledge screen lists it. */
export interface KnowledgeBaseView {
  id: string
  name: string
  /** Whether its chunks also have vectors for vector search. */
  vectors: boolean
  embedding: KnowledgeEmbeddingChoice
  documentCount: number
  chunkCount: number
  sizeBytes: number
}

export interface KnowledgeDocumentView {
  id: string
  name: string
  sizeBytes: number
  chunkCount: number
}

/** One dropped file: stored with its chunk count, or refused with why (words from `knowledge:`). */
export type KnowledgeFileOutcome =
  | { name: string; ok: true; chunkCount: number }
  | { name: string; ok: false; reasonKey: string; detail?: string }

/** The Knowledge screen's services (the knowledge area). Storage failures reject with FlowErrors. */
export interface KnowledgeService {
  open(): void
  listBases(): Promise<KnowledgeBaseView[]>
  listDocuments(baseId: string): Promise<KnowledgeDocumentView[]>
  createBase(base: { id: string; name: string; embedding: KnowledgeEmbeddingChoice }): Promise<void>
  addFiles(baseId: string, files: readonly File[]): Promise<KnowledgeFileOutcome[]>
  removeDocument(documentId: string): Promise<void>
  removeBase(baseId: string): Promise<void>
}

export interface AreaLoader {
  /**
   * Loads an area's code and installs its services now: on the first use of one of its
   * controls, or ahead of it (pointer over, focus). False when it failed (the banner says why).
   */
  load(area: AreaName): Promise<boolean>
}

export interface AppServices {
  flows: FlowsService
  areas?: AreaLoader
  run?: RunService
  import?: ImportService
  export?: ExportService
  settings?: SettingsService
  /** What the settings screen does (app/settings/settingsService.ts). */
  settingsPanel?: SettingsPanelApi
  templates?: TemplatesService
  knowledge?: KnowledgeService
  batch?: BatchService
}

/**
 * Batch runs of the open flow (the batch area, app/batch): one run per row of a CSV or JSONL
 * file. Its state is store/batchStore.ts; failures show in the screen's own alert.
 */
export interface BatchService {
  open(): void
  close(): void
  /** Scans the file (in the data worker) and maps its columns to the flow's Input keys by name. */
  chooseFile(file: File): Promise<void>
  setMapping(inputKey: string, column: string | null): void
  setConcurrency(value: number): void
  run(): void
  stop(): void
  rerunFailed(): void
  exportResults(format: 'csv' | 'jsonl'): void
  /** Shows row `row`'s run on the canvas (the screen closes). */
  openRow(row: number): Promise<void>
}

/** Services that do nothing: the default for tests and for UI pieces rendered on their own. */
export const noopFlowsService: FlowsService = {
  create: async () => {},
  open: async () => {},
  rename: async () => {},
  duplicate: async () => {},
  remove: async () => {},
  flush: async () => {},
}

export const ServicesContext = createContext<AppServices>({ flows: noopFlowsService })

export function useServices(): AppServices {
  return useContext(ServicesContext)
}
