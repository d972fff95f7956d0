/**
 * The engine's public surface. Everything outside `src/engine` imports from here.
 * Pure TypeScript: no React, DOM, Dexie or Node built-ins (docs/architecture.md).
 */
export * from './flow.ts'
export * from './errors.ts'
export * from './events.ts'
export * from './ports.ts'
export * from './context.ts'
export * from './knowledge.ts'
export * from './mcp.ts'
export * from './nodeType.ts'
export * from './agent/index.ts'
export * from './graph.ts'
export * from './templates.ts'
export * from './keyed.ts'
export * from './preflight.ts'
export * from './nesting.ts'
export { calledFlows } from './subflowCheck.ts'
export * from './secretScrub.ts'
export { raceAbort } from './raceAbort.ts'
export type { ApprovalAnswer, ApprovalPort, ApprovalRequest, ToolApproval, ToolApprover } from './approval.ts'
// Types only (erased): the editor names them, the code behind them is the run engine's (run.ts).
export type { CalledFlow, FlowLookup, NestedRun } from './subflow.ts'
export type { OutputSpec } from './structured.ts'
export type { NodeCached, PinnedOutput, ReusedOutput, RunOptions } from './reuse.ts'
export type { BodyScope, IterationRun, LoopBody } from './loopBody.ts'
export * from './schemaPath.ts'
// The run engine (scheduler, Agent loop, stream watchers, reuse): ./run.ts, loaded with a run.
