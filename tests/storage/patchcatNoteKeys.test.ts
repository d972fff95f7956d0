/**
 * Every note the PatchCat converter writes carries a catalogue key both languages have: English
 * readers see the very text the CLI prints, zh-CN readers Chinese. The files in
 * tests/support/patchcatNoteFiles.ts make every kind of note, so a new English-only note fails.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changeLanguage, i18next, initI18n } from '../../src/i18n/index.ts'
import { importPatchCat } from '../../src/storage/patchcat.ts'
import { noteText } from '../../src/ui/import/noteText.ts'
import { catalogueKeys } from '../ui/catalogueChecks.ts'
import {
  EVERY_NOTE_FILE,
  NOT_IN_BUILD_FILE,
  TAGS_ONLY_FILE,
  withoutOutput,
} from '../support/patchcatNoteFiles.ts'

const t = (key: string, values?: Record<string, string | number>): string => i18next.t(key, values)
const HAN = /\p{Script=Han}/u
const I18N = join(import.meta.dirname, '../../src/i18n')

function converted() {
  const results = [
    importPatchCat(EVERY_NOTE_FILE),
    importPatchCat(NOT_IN_BUILD_FILE, withoutOutput),
    importPatchCat(TAGS_ONLY_FILE),
  ]
  return results.map((result) => {
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    return result
  })
}

/** The notes of condition, aggregator, loop and sub-workflow: patchcatFlow.test.ts makes and checks each. */
const CONTROL_FLOW_NOTES = new Set([
  'placeholder.cannotRun',
  'caseRenamed',
  'edgeNoCase',
  'edgeEveryCase',
  'waitAll',
  'mergeMixedInputs',
  'loopNoItems',
  'loopNoBody',
  'subflowMissing',
  'subflowNoTarget',
  'conditionExpression',
  'conditionNoCases',
  'caseNoRules',
  'unknownLogic',
  'ruleNotObject',
  'ruleNoVariable',
  'unknownOperator',
  'unknownMergeMode',
  'notInLoop',
  'conditionInputsUnused',
  'mergeInputsUnused',
  'valueFitted',
])

function issuesKeys(lang: string): Set<string> {
  return catalogueKeys(JSON.parse(readFileSync(join(I18N, lang, 'issues.json'), 'utf8')))
}

beforeAll(async () => {
  await initI18n('en')
})
afterAll(async () => {
  await changeLanguage('en')
})

describe('PatchCat conversion notes', () => {
  it('every note has a catalogue key that both catalogues hold', () => {
    const [en, zh] = [issuesKeys('en'), issuesKeys('zh-CN')]
    for (const result of converted()) {
      expect(result.keyedNotes.map((k) => k.text)).toEqual(result.notes)
      for (const { key } of result.keyedNotes) {
        const path = key.replace(/^issues:/, '')
        expect({ key, en: en.has(path), zh: zh.has(path) }).toEqual({ key, en: true, zh: true })
      }
    }
  })

  it('the files make every kind of PatchCat note the catalogue has', () => {
    const made = new Set(converted().flatMap((r) => r.keyedNotes.map((k) => k.key.replace(/^issues:/, ''))))
    const catalogued = [...issuesKeys('en')].filter(
      (k) =>
        k.startsWith('importNote.patchcat.') &&
        !CONTROL_FLOW_NOTES.has(k.slice('importNote.patchcat.'.length)),
    )
    expect(catalogued.filter((k) => !made.has(k))).toEqual([])
  })

  it('in English each note reads exactly as the CLI prints it', async () => {
    await changeLanguage('en')
    for (const result of converted())
      for (const note of result.notes) expect(noteText(result, note, t)).toBe(note)
  })

  it('in zh-CN each note is Chinese, with the file’s own names kept', async () => {
    await changeLanguage('zh-CN')
    const [result] = converted()
    const shown = result?.notes.map((note) => noteText(result, note, t)) ?? []
    expect(shown.length).toBeGreaterThan(25)
    for (const text of shown) {
      expect(text).toMatch(HAN)
      expect(text).not.toMatch(/not carried over|was left out|renamed to|is not a|could not be|became/)
    }
    expect(shown).toContain('writer：temperature 的值 "warm" 不是数字，未保留。')
    expect(shown).toContain('edges[2]（"loop"）把 writer 连接到自身，工作流不允许这样；已略去。')
  })
})
