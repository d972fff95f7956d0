/** The guarded agent: canonical signatures, the loop guard and the ReAct loop (docs/guard.md). */
export * from './signature.ts'
export * from './loopGuard.ts'
export * from './messages.ts'
export * from './protection.ts'
export * from './tokens.ts'
export * from './types.ts'
export * from './turnWatch.ts'
export * from './loop.ts'
