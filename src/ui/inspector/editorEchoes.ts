/**
 * Tells a code editor's own changes, handed back by its field, from changes made elsewhere (undo
 * in the store, another node selected, a reload). A field re-renders some time after a key: on a
 * busy machine a render can carry the text of two keys ago while the editor already holds more.
 * Writing such a stale value into the editor (what @monaco-editor/react does with its `value`
 * prop) drops the keys typed since; `"t"}e"` was left of `"type"` in a JSON field. So every text
 * the editor reported is remembered until the field hands it back, and only a value that is none
 * of them is written into the editor.
 */
import { CODE_EDITOR_PENDING_ECHOES_MAX } from '../../defaults.ts'

export class EditorEchoes {
  private pending: string[] = []

  /** The editor reported `text` to its field. */
  sent(text: string): void {
    this.pending.push(text)
    if (this.pending.length > CODE_EDITOR_PENDING_ECHOES_MAX) this.pending.shift()
  }

  /**
   * The field renders `value`: false when it is one of the editor's own texts (that one and every
   * older one are then answered), true when it came from elsewhere and belongs in the editor.
   */
  isExternal(value: string): boolean {
    const at = this.pending.lastIndexOf(value)
    if (at >= 0) {
      this.pending.splice(0, at + 1)
      return false
    }
    this.pending = []
    return true
  }
}
