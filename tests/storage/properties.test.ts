import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NODE_ID_PATTERN } from '../../src/defaults.ts'
import { UNSUPPORTED_TYPE, type FlowDocument } from '../../src/engine/index.ts'
import { getNodeDefinition } from '../../src/nodes/registry.ts'
import { appSettingsSchema } from '../../src/settings/schema.ts'
import { listFlows, loadFlow, saveFlow } from '../../src/storage/repositories/flows.ts'
import { graphProblems, restoreConfig } from '../../src/storage/restore/index.ts'
import { exportSettingsFull, exportSettingsSanitized } from '../../src/storage/settingsFile.ts'
import { asNewFlow, exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'
import { mutatedFile, plantedSettings, validFlow } from './arbitraries.ts'
import { freshDb, richFlow, sampleFlow } from './support.ts'

/** The invariants every accepted import must hold. */
function expectValidFlow(doc: FlowDocument): void {
  for (const node of doc.nodes) {
    expect(node.id).toMatch(NODE_ID_PATTERN)
    const definition = getNodeDefinition(node.type)
    if (definition === undefined) throw new Error(`unknown type ${node.type} accepted`)
    expect(restoreConfig(definition, node.data.config)).toMatchObject({ ok: true })
  }
  expect(graphProblems(doc.nodes, doc.edges)).toEqual([])
}

describe('settings exports never contain a planted secret', () => {
  it('sanitized: 10,000 random settings with keys, auth headers, query tokens and key shapes in text', () => {
    fc.assert(
      fc.property(plantedSettings, ({ settings, secrets, cores }) => {
        const { text, redacted } = exportSettingsSanitized(settings, secrets)
        for (const secret of cores) expect(text).not.toContain(secret)
        expect(redacted.length).toBeGreaterThan(0)
        const file = JSON.parse(text) as { settings: unknown; redacted: string[] }
        expect(file.redacted).toEqual(redacted)
        expect(appSettingsSchema.safeParse(file.settings).success).toBe(true)
      }),
      { numRuns: 10_000 },
    )
  }, 120_000)

  it('full: the encrypted file holds no plaintext secret (20 runs: PBKDF2 at 600,000 iterations is slow on purpose)', async () => {
    await fc.assert(
      fc.asyncProperty(plantedSettings, async ({ settings, secrets, cores }) => {
        const { text } = await exportSettingsFull(settings, secrets, 'property passphrase')
        for (const secret of cores) expect(text).not.toContain(secret)
      }),
      { numRuns: 20 },
    )
  }, 120_000)
})

describe('workflow files', () => {
  it('export then import gives back the same flow (300 random flows)', () => {
    fc.assert(
      fc.property(validFlow, (doc) => {
        expect(parseWorkflowText(exportWorkflowText(doc))).toEqual({
          ok: true,
          doc,
          subflows: [],
          source: 'wardflow',
          notes: [],
        })
      }),
      { numRuns: 300 },
    )
  }, 60_000)

  it('5,000 mutated files: each imports as a valid flow or is refused with problems, never throws, stored flows untouched', async () => {
    const db = await freshDb()
    const kept = [sampleFlow('kept_a', 'Kept A'), sampleFlow('kept_b', 'Kept B')]
    for (const doc of kept) await saveFlow(db, doc)
    const bases = [
      exportWorkflowText(richFlow()),
      readFileSync(
        new URL('../fixtures/workflows/patchcat-saved-research-desk.json', import.meta.url),
        'utf8',
      ),
    ]
    let accepted = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bases).chain((base) => mutatedFile(base)),
        async (text) => {
          const result = parseWorkflowText(text)
          if (result.ok) {
            expectValidFlow(result.doc)
            accepted += 1
            // What the app does with an accepted file: a new flow, never over an existing one.
            if (accepted % 25 === 0)
              await saveFlow(db, asNewFlow(result.doc, `imported_${accepted}`, '2026-11-29T00:00:00.000Z'))
          } else {
            refused += 1
            expect(result.problems.length).toBeGreaterThan(0)
            for (const problem of result.problems) {
              expect(typeof problem.path).toBe('string')
              expect(problem.message.length).toBeGreaterThan(0)
            }
          }
        },
      ),
      { numRuns: 5_000 },
    )
    expect(accepted).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
    for (const doc of kept) expect((await loadFlow(db, doc.metadata.id))?.doc).toEqual(doc)
    expect(await listFlows(db)).toHaveLength(kept.length + Math.floor(accepted / 25))
  }, 120_000)

  it('unsupported placeholders survive export and import unchanged', () => {
    fc.assert(
      fc.property(validFlow, (doc) => {
        const result = parseWorkflowText(exportWorkflowText(doc))
        if (!result.ok) throw new Error('refused')
        const placeholders = (d: FlowDocument) => d.nodes.filter((n) => n.type === UNSUPPORTED_TYPE)
        expect(placeholders(result.doc)).toEqual(placeholders(doc))
      }),
      { numRuns: 100 },
    )
  })
})
