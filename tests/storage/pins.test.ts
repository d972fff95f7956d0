/** Pinned outputs and the reuse setting survive a workflow file's export and import (issue 19). */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { exportWorkflowText, parseWorkflowText } from '../../src/storage/workflowFile.ts'

const FILE = readFileSync('tests/fixtures/cli/pinned.wardflow.json', 'utf8')

describe('pinned outputs in workflow files', () => {
  it('import keeps a pin, export writes it back, and a second import reads the same', () => {
    const first = parseWorkflowText(FILE)
    if (!first.ok) throw new Error(JSON.stringify(first.problems))
    const llm = first.doc.nodes.find((n) => n.id === 'llm_1')
    expect(llm?.pinned).toEqual({ output: { response: 'PINNED ANSWER' } })
    const doc = { ...first.doc, metadata: { ...first.doc.metadata, reuseUnchanged: true } }
    const again = parseWorkflowText(exportWorkflowText(doc))
    if (!again.ok) throw new Error(JSON.stringify(again.problems))
    expect(again.doc.nodes.find((n) => n.id === 'llm_1')?.pinned).toEqual(llm?.pinned)
    expect(again.doc.metadata.reuseUnchanged).toBe(true)
  })

  it('refuses a pin that is not an object, with its JSON path', () => {
    const bad = JSON.parse(FILE) as { nodes: { pinned?: unknown }[] }
    bad.nodes[2]!.pinned = { output: 'text' }
    const result = parseWorkflowText(JSON.stringify(bad))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.problems[0]?.path).toContain('nodes[2].pinned')
  })
})
