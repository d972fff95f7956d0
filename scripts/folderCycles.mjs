// Finds import cycles between folders of src/ (the dependency rule of docs/architecture.md):
// one arrow per pair of folders, so a cycle means two parts that cannot be read, tested or
// loaded one without the other. Module-level cycles inside a folder are that folder's business.
import path from 'node:path'
import ts from 'typescript'

/**
 * The unit a file belongs to: its folder under `root` (a top-level file is a unit of its own),
 * one level deeper inside the folders listed in `nested` (files directly in such a folder form
 * the folder's own unit).
 */
export function unitOf(file, root, nested) {
  const rel = path.posix.relative(root, file)
  for (const folder of nested) {
    const inside = path.posix.relative(path.posix.join(root, folder), file)
    if (!inside.startsWith('..')) {
      const parts = inside.split('/')
      return parts.length > 1 ? `${folder}/${parts[0]}` : folder
    }
  }
  return rel.split('/')[0]
}

/** Relative imports (static, dynamic, type-only and re-exports) of one file, resolved. */
function importsOf(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
    .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)))
}

/**
 * Cycles between units: each cycle lists its units and, for each arrow, one import that makes
 * it (`from -> to: file imports spec`). `files` maps posix paths under `root` to their text.
 */
export function folderCycles(files, { root = 'src', nested = [] } = {}) {
  const edges = new Map()
  for (const [file, text] of files) {
    const from = unitOf(file, root, nested)
    for (const target of importsOf(file, text)) {
      if (path.posix.relative(root, target).startsWith('..')) continue
      const to = unitOf(target, root, nested)
      if (to === from) continue
      if (!edges.has(from)) edges.set(from, new Map())
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} imports ${target}`)
    }
  }
  return stronglyConnected(edges).map((units) => {
    const set = new Set(units)
    const arrows = []
    for (const from of units)
      for (const [to, why] of edges.get(from) ?? []) if (set.has(to)) arrows.push(`${from} -> ${to}: ${why}`)
    return { units, arrows }
  })
}

/** Tarjan's strongly connected components with more than one unit. */
function stronglyConnected(edges) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  let next = 0
  const visit = (v) => {
    index.set(v, next)
    low.set(v, next)
    next += 1
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) !== index.get(v)) return
    const component = []
    let w
    do {
      w = stack.pop()
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length > 1) found.push(component.sort())
  }
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}
