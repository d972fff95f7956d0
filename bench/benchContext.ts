/**
 * The run context the engine benches run with: the system clock, default protection, and ports
 * the benched flows never use (a call to one fails the run, so a bench cannot measure them by
 * accident).
 */
import { createSchemaValidator } from '../src/platform/schemaValidator.ts'
import { defaultProtection, FlowError, type RunContext } from '../src/engine/index.ts'
import { systemClock } from '../src/platform/systemClock.ts'

export function benchContext(): RunContext {
  const refuse = async (): Promise<never> => {
    throw new FlowError('INTERNAL', 'not used in the bench')
  }
  return {
    runId: 'bench',
    clock: systemClock,
    fetch: refuse,
    codeRunner: { run: refuse },
    providers: { resolve: refuse },
    estimateTokens: async (text) => text.length,
    validator: createSchemaValidator(),
    signal: new AbortController().signal,
    protection: defaultProtection(),
  }
}
