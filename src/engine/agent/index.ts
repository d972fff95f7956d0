/** The guarded agent: canonical signatures, and the loop guard (docs/guard.md);
 * the ReAct loop itself is exported by ../run.ts, with the rest of the run engine. */
export * from './signature.ts'
export * from './loopGuard.ts'
export * from './messages.ts'
export * from './protection.ts'
export * from './tokens.ts'
export * from './types.ts'
export * from './turnWatch.ts'
