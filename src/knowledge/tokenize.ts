/**
 * Words for keyword search and the demo's hashed vectors. Latin-script text splits into
 * lower-cased words; Chinese and Japanese text has no spaces, so a run of CJK characters becomes
 * its overlapping pairs (bigrams, the usual unit for CJK keyword search), one character alone
 * when the run is one character long.
 */
const WORD = /[\p{L}\p{N}]+/gu
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu
/** Without the g flag: test() keeps no lastIndex between words. */
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u

export function tokenize(text: string): string[] {
  const out: string[] = []
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0]
    if (!HAS_CJK.test(word)) {
      out.push(word)
      continue
    }
    // Mixed words ("gpt模型") keep their non-CJK parts as words.
    let rest = word
    for (const cjk of word.matchAll(CJK_RUNS)) {
      const run = [...cjk[0]]
      if (run.length === 1) out.push(cjk[0])
      for (let i = 0; i + 1 < run.length; i += 1) out.push(`${run[i]}${run[i + 1]}`)
      rest = rest.replace(cjk[0], ' ')
    }
    for (const part of rest.split(' ')) if (part !== '') out.push(part)
  }
  return out
}
