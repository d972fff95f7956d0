/**
 * The engine's public surface. Everything outside `src/engine` imports from here.
 * Pure TypeScript: no React, DOM, Dexie or Node built-ins (docs/architecture.md).
 */
export * from './flow.ts'
export * from './errors.ts'
export * from './events.ts'
export * from './ports.ts'
export * from './context.ts'
export * from './nodeType.ts'
export * from './agent/index.ts'
export * from './graph.ts'
export * from './templates.ts'
export * from './keyed.ts'
export * from './preflight.ts'
export * from './runFlow.ts'
export * from './subflow.ts'
export * from './nesting.ts'
export { calledFlows } from './subflowCheck.ts'
export type { BodyScope, IterationRun, LoopBody } from './loopBody.ts'
export * from './secretScrub.ts'
export { raceAbort } from './raceAbort.ts'
export * from './reuse.ts'
