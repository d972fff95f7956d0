/**
 * The inspector (`node-inspector`) of the selected node: fields found by their visible labels.
 */
import { expect, type Locator, type Page } from '@playwright/test'

export class InspectorPage {
  readonly root: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('node-inspector')
  }

  /** Waits until the inspector shows the node `id`. */
  async shows(id: string): Promise<void> {
    await expect(this.root).toHaveAttribute('data-node-id', id)
  }

  /** A field by its visible label (exact). */
  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true })
  }

  /** The frame of the field labelled `label`: its control, help, messages and inherit note. */
  fieldFrame(label: string): Locator {
    // `has` is looked up inside each frame, so it starts from the page, not from the inspector.
    return this.root
      .getByTestId('inspector-field')
      .filter({ has: this.page.getByLabel(label, { exact: true }) })
  }

  /** What the field inherits and from where, or that it is set on this node. */
  inheritNote(label: string): Locator {
    return this.fieldFrame(label).getByTestId('inherit-note')
  }

  /** The button that drops a field's own value so it inherits again (only while overridden). */
  resetButton(label: string): Locator {
    return this.root.getByRole('button', { name: `Reset ${label} to the inherited value`, exact: true })
  }

  /** Opens a collapsible group of fields (such as "Runtime protection") unless it is open. */
  async openGroup(name: string): Promise<void> {
    const group = this.root.locator('details').filter({
      has: this.page.locator('summary').getByText(name, { exact: true }),
    })
    if ((await group.getAttribute('open')) === null) await group.locator('summary').click()
    await expect(group).toHaveAttribute('open', '')
  }

  /**
   * The flow's own run budget, shown with nothing selected (`flow-limit-tokens`,
   * `flow-limit-usd`): the limits written to the flow's metadata.limits.
   */
  flowLimit(unit: 'tokens' | 'usd'): Locator {
    return this.page.getByTestId(`flow-limit-${unit}`)
  }

  /** The node's title input. */
  get title(): Locator {
    return this.field('Title')
  }

  /** The value input of row `n` (1-based) of a name/value list such as Input or Output values. */
  recordValue(fieldLabel: string, n: number): Locator {
    return this.root.getByLabel(`${fieldLabel}: value ${n}`, { exact: true })
  }

  /** A Sub-flow node's flow picker (a select of the saved flows). */
  get subflowFlow(): Locator {
    return this.root.getByTestId('subflow-flow')
  }

  /** A Sub-flow node's template for the called flow's Input key `key`. */
  subflowInput(key: string): Locator {
    return this.root.getByLabel(`Inputs: ${key}`, { exact: true })
  }

  /** The called flow's Output keys, as the Sub-flow node lists them. */
  get subflowOutputs(): Locator {
    return this.root.getByTestId('subflow-outputs')
  }

  /** The Sub-flow node's "Open" button: opens the called flow. */
  get subflowOpen(): Locator {
    return this.root.getByTestId('subflow-open')
  }

  recordName(fieldLabel: string, n: number): Locator {
    return this.root.getByLabel(`${fieldLabel}: name ${n}`, { exact: true })
  }

  /** Replaces a text field's content the way a person does: select all, then type. */
  async typeInto(field: Locator, text: string): Promise<void> {
    await field.click()
    await field.press('ControlOrMeta+A')
    await field.pressSequentially(text, { delay: 5 })
  }

  /** The Monaco editor of a code field (it loads lazily). */
  codeEditor(): Locator {
    return this.root.locator('.monaco-editor').first()
  }

  /** The frame of one field (label, control, help), by its visible label (exact). */
  fieldBox(label: string): Locator {
    return this.root
      .locator('.wf-field')
      .filter({ has: this.page.locator('.wf-field__label').getByText(label, { exact: true }) })
      .first()
  }

  /**
   * Types into a Monaco editor key by key, as a person does (page.keyboard.type: real key
   * events, so the canvas's own key handling sees them too), after clearing it.
   */
  async typeInEditor(scope: Locator, text: string): Promise<void> {
    const editor = scope.locator('.monaco-editor').first()
    await expect(editor).toBeVisible({ timeout: 20_000 })
    await editor.locator('.view-lines').click()
    await this.page.keyboard.press('ControlOrMeta+A')
    await this.page.keyboard.press('Delete')
    await this.page.keyboard.type(text, { delay: 10 })
  }

  /**
   * What a Monaco editor shows of a one-line text (its view lines joined: a long line wraps into
   * several), with its non-breaking spaces read as spaces.
   */
  async editorText(scope: Locator): Promise<string> {
    const lines = scope.locator('.monaco-editor .view-lines').first()
    const text = (await lines.textContent()) ?? ''
    return text.replace(/\u00a0/g, ' ')
  }

  /** Replaces the code in the Monaco editor (insertText: keyboard.type loses some characters). */
  async setCode(code: string): Promise<void> {
    const editor = this.codeEditor()
    await expect(editor).toBeVisible({ timeout: 20_000 })
    await editor.locator('.view-lines').click()
    await this.page.keyboard.press('ControlOrMeta+A')
    await this.page.keyboard.press('Delete')
    await this.page.keyboard.insertText(code)
    await expect(editor.locator('.view-lines')).toContainText(code.split('\n')[0] ?? '')
  }

  /** Case `n` (1-based) of a condition's cases editor (`condition-case`). */
  conditionCase(n: number): Locator {
    return this.root.getByTestId('condition-case').nth(n - 1)
  }

  /** The preview line of a condition: which case the last run's values take. */
  get conditionPreview(): Locator {
    return this.root.getByTestId('condition-preview')
  }

  /**
   * Fills case `n`'s id, then its rule 1: the value picked from the upstream fields list, the
   * op chosen and the text to compare with typed, by keyboard and the pickers a person uses.
   */
  async fillCase(n: number, c: { id: string; pick: string; op: string; to: string }): Promise<void> {
    const box = this.conditionCase(n)
    await this.typeInto(box.getByLabel('Id (output handle)', { exact: true }), c.id)
    await expect(box).toHaveAttribute('data-case-id', c.id)
    const rule = box.getByTestId('condition-rule').first()
    await rule.getByRole('combobox', { name: /insert an upstream field$/ }).selectOption(c.pick)
    await expect(rule.getByRole('textbox', { name: /: value$/ })).toHaveValue(c.pick)
    await rule.getByRole('combobox', { name: /: comparison$/ }).selectOption({ label: c.op })
    await this.typeInto(rule.getByRole('textbox', { name: /: compare with$/ }), c.to)
  }

  /** Turns on structured output of the selected model node (an empty object schema). */
  async enableOutputSchema(): Promise<void> {
    await this.root.getByTestId('output-schema-enable').click()
    await expect(this.root.getByTestId('output-schema')).toBeVisible()
  }

  /** Adds a top-level field to the output schema with the form: name, type (enum values), required. */
  async addSchemaField(f: {
    name: string
    type: string
    values?: string
    required?: boolean
  }): Promise<void> {
    const form = this.root.getByTestId('output-schema')
    await this.typeInto(form.getByTestId('schema-field-name'), f.name)
    await form.getByTestId('schema-field-type').selectOption({ label: f.type })
    if (f.values !== undefined) await this.typeInto(form.getByTestId('schema-field-values'), f.values)
    await form.getByTestId('schema-field-required').setChecked(f.required ?? true)
    await form.getByTestId('schema-field-add').click()
    await expect(
      form.getByTestId('schema-field-row').and(this.page.locator(`[data-field="${f.name}"]`)),
    ).toBeVisible()
  }
}
