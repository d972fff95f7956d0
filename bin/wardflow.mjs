#!/usr/bin/env node
// Headless entry: `npx wardflow run flow.json`. tsx lets Node 20 run the TypeScript engine
// directly, so the CLI and the app share one source with no separate build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
