/**
 * The run engine: what executes a flow (the scheduler, the Agent's ReAct loop, the watchers on
 * streamed text, structured replies, reuse of past results, sub-flow calls). Kept apart from
 * `index.ts` (the flow model, graph, preflight and templates the editor needs from its first
 * paint): the page's start imports only `index.ts`, so none of this is in the start's chunk;
 * the run service, the executors and the CLI import it here (it re-exports index.ts too).
 */
export * from './index.ts'
export * from './runFlow.ts'
export * from './subflow.ts'
export * from './agent/loop.ts'
export * from './textLoop/index.ts'
export * from './structured.ts'
export * from './reuse.ts'
export * from './callEvents.ts'
export * from './approval.ts'
export * from './approvalResume.ts'
export * from './cost/pricing.ts'
export * from './cost/ledger.ts'
export * from './cost/runBudget.ts'
export * from './cost/sharedBudget.ts'
