/**
 * The canvas as a person uses it: the palette, nodes (`flow-node`), their handles and
 * connections, selection, keyboard shortcuts and the viewport.
 */
import { expect, type Locator, type Page } from '@playwright/test'

export const NODE_TYPES = ['input', 'template', 'llm', 'agent', 'code', 'http', 'output'] as const
export type NodeType = (typeof NODE_TYPES)[number]

export interface Point {
  x: number
  y: number
}

export interface Viewport {
  x: number
  y: number
  zoom: number
}

export class CanvasPage {
  /** React Flow's interactive surface (role "application"). */
  readonly surface: Locator
  readonly nodes: Locator
  /** Connections between nodes (React Flow marks them with aria-roledescription="edge"). */
  readonly edges: Locator
  /** Short status notes (refused connections, pasted nodes); role=status. */
  readonly notes: Locator
  readonly welcome: Locator

  constructor(readonly page: Page) {
    this.surface = page.getByRole('application')
    this.nodes = page.getByTestId('flow-node')
    this.edges = page.locator('[aria-roledescription="edge"]')
    this.notes = page.getByTestId('status-notes')
    this.welcome = page.getByTestId('welcome')
  }

  paletteItem(type: string): Locator {
    return this.page.getByTestId(`palette-item-${type}`)
  }

  node(id: string): Locator {
    return this.page.locator(`[data-testid="flow-node"][data-node-id="${id}"]`)
  }

  nodesOfType(type: string): Locator {
    return this.page.locator(`[data-testid="flow-node"][data-node-type="${type}"]`)
  }

  /** The node's console (`node-console`), where run output streams. */
  console(id: string): Locator {
    return this.node(id).getByTestId('node-console')
  }

  guardAlerts(id: string): Locator {
    return this.node(id).getByTestId('guard-alert')
  }

  async nodeIds(): Promise<string[]> {
    const ids = await this.nodes.evaluateAll((els) => els.map((el) => el.getAttribute('data-node-id') ?? ''))
    return ids.sort()
  }

  /** The canvas rectangle in page coordinates. */
  async box(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.surface.boundingBox()
    if (!box) throw new Error('The canvas is not visible')
    return box
  }

  /** A point of the canvas given as fractions of its width and height. */
  async pointAt(fx: number, fy: number): Promise<Point> {
    const box = await this.box()
    return { x: Math.round(box.x + box.width * fx), y: Math.round(box.y + box.height * fy) }
  }

  /**
   * Drags a palette entry onto the canvas with a real HTML5 drag and drop (Chromium's native
   * drag, driven by the mouse) and returns the id of the node that appeared.
   */
  async dragFromPalette(type: string, to: Point): Promise<string> {
    const before = new Set(await this.nodeIds())
    const box = await this.box()
    await this.paletteItem(type).dragTo(this.surface, {
      targetPosition: { x: to.x - box.x, y: to.y - box.y },
    })
    return this.newNodeId(before, type)
  }

  /**
   * Drops a palette entry at the canvas point given as fractions of the canvas's width and
   * height (the node's centre): a layout in the canvas's own terms, which holds whatever the
   * window, the side panels and the problems list leave of it. Clicks instead fan new nodes out
   * down the diagonal from the centre, towards the edge of a small canvas.
   */
  async addAt(type: string, fx: number, fy: number): Promise<string> {
    return this.dragFromPalette(type, await this.pointAt(fx, fy))
  }

  /** Clicks a palette entry (adds the node at the centre of the view). */
  async addByClick(type: string): Promise<string> {
    const before = new Set(await this.nodeIds())
    await this.paletteItem(type).click()
    return this.newNodeId(before, type)
  }

  /** Focuses a palette entry and presses Enter. */
  async addByKeyboard(type: string): Promise<string> {
    const before = new Set(await this.nodeIds())
    await this.paletteItem(type).focus()
    await this.page.keyboard.press('Enter')
    return this.newNodeId(before, type)
  }

  private async newNodeId(before: Set<string>, type: string): Promise<string> {
    let found = ''
    await expect(async () => {
      const added = (await this.nodeIds()).filter((id) => !before.has(id))
      expect(added, `one new ${type} node`).toHaveLength(1)
      found = added[0] ?? ''
    }).toPass({ timeout: 10_000 })
    await expect(this.node(found)).toHaveAttribute('data-node-type', type)
    return found
  }

  /** The toolbar's "Fit the flow in view". */
  async fitView(): Promise<void> {
    await this.page.getByRole('button', { name: 'Fit the flow in view', exact: true }).click()
    // The view animates there: wait until two reads a frame apart agree.
    await expect(async () => {
      const first = await this.viewport()
      await this.page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      )
      expect(await this.viewport()).toEqual(first)
    }).toPass({ timeout: 5_000 })
  }

  async centreOf(locator: Locator): Promise<Point> {
    const box = await locator.boundingBox()
    if (!box) throw new Error('Element is not visible')
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  }

  /**
   * Fails when `point` is outside the visible canvas. A node or connection drag whose pointer
   * leaves the canvas (or nears its edge) makes React Flow pan the view for as long as it stays
   * there, a distance that depends on timing; a click outside it lands on the panels around it.
   * A person drags and clicks only what they see: a test that asks for more has a layout that
   * does not fit what the window, the side panels and the problems list leave of the canvas.
   */
  async expectInView(point: Point, what: string): Promise<void> {
    const box = await this.box()
    const inside =
      point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height
    if (!inside) {
      throw new Error(
        `${what} at (${Math.round(point.x)}, ${Math.round(point.y)}) is outside the visible canvas ` +
          `(${Math.round(box.x)}, ${Math.round(box.y)}, ${Math.round(box.width)} x ${Math.round(box.height)}): ` +
          'lay the flow out to fit (addAt, fitView)',
      )
    }
  }

  /** Drags from a node's output handle to another node's input handle, in small mouse steps. */
  async connect(fromId: string, toId: string): Promise<void> {
    const from = await this.centreOf(this.node(fromId).locator('[data-handlepos="right"]'))
    const to = await this.centreOf(this.node(toId).locator('[data-handlepos="left"]'))
    await this.expectInView(from, `The output handle of ${fromId}`)
    await this.expectInView(to, `The input handle of ${toId}`)
    const mouse = this.page.mouse
    await mouse.move(from.x, from.y)
    await mouse.down()
    await mouse.move(from.x + 20, from.y + 10, { steps: 4 })
    await mouse.move(to.x, to.y, { steps: 12 })
    await mouse.up()
  }

  /** One declared port's handle (`port-output-yes`): a condition has one per case plus else. */
  port(id: string, side: 'input' | 'output', port: string): Locator {
    return this.node(id).getByTestId(`port-${side}-${port}`)
  }

  /** Drags from output port `port` of `fromId` (a condition's case) to `toId`'s input handle. */
  async connectPort(fromId: string, port: string, toId: string): Promise<void> {
    const from = await this.centreOf(this.port(fromId, 'output', port))
    const to = await this.centreOf(this.node(toId).locator('[data-handlepos="left"]'))
    await this.expectInView(from, `Output port ${port} of ${fromId}`)
    await this.expectInView(to, `The input handle of ${toId}`)
    const mouse = this.page.mouse
    await mouse.move(from.x, from.y)
    await mouse.down()
    await mouse.move(from.x + 20, from.y + 10, { steps: 4 })
    await mouse.move(to.x, to.y, { steps: 12 })
    await mouse.up()
  }

  /** Why a node did not run, as its body says (`node-skip-reason`). */
  skipReason(id: string): Locator {
    return this.node(id).getByTestId('node-skip-reason')
  }

  /** A node's focusable frame (React Flow's wrapper, which Tab reaches and Enter selects). */
  nodeFrame(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`)
  }

  /**
   * Presses Tab (Shift+Tab with `back`) until `target` has the focus, as a keyboard user walks
   * the page; fails after `max` presses.
   */
  async tabTo(
    target: Locator,
    { back = false, max = 80 }: { back?: boolean; max?: number } = {},
  ): Promise<void> {
    for (let i = 0; i < max; i += 1) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
      await this.page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    }
    await expect(target, `reached by ${max} presses of Tab`).toBeFocused()
  }

  /** The "Connect to…" dialog of the selected node. */
  get connectDialog(): Locator {
    return this.page.getByTestId('connect-dialog')
  }

  /**
   * Connects the node `fromId` to `toId` with the keyboard only: Tab to the node, Enter selects
   * it, C opens "Connect to…", the arrow keys walk the targets and Enter connects.
   */
  async connectByKeyboard(fromId: string, toId: string): Promise<void> {
    await this.tabTo(this.nodeFrame(fromId))
    await this.page.keyboard.press('Enter')
    await expect(this.node(fromId)).toHaveAttribute('data-selected', 'true')
    await this.page.keyboard.press('c')
    await expect(this.connectDialog).toBeVisible()
    await this.chooseTarget(toId)
    await this.page.keyboard.press('Enter')
  }

  /** Walks the open "Connect to…" list with ArrowDown until the option for `toId` is active. */
  async chooseTarget(toId: string): Promise<void> {
    const options = this.connectDialog.getByRole('option')
    const count = await options.count()
    for (let i = 0; i <= count; i += 1) {
      const active = this.connectDialog.locator('[role="option"][aria-selected="true"]')
      if ((await active.getAttribute('data-node-id')) === toId) return
      await this.page.keyboard.press('ArrowDown')
    }
    throw new Error(`No option for ${toId} in the Connect dialog`)
  }

  edge(fromId: string, toId: string): Locator {
    return this.page.locator(`[aria-roledescription="edge"][aria-label="Edge from ${fromId} to ${toId}"]`)
  }

  /** Selects a node with a click on its header (away from handles, console and title). */
  async select(id: string): Promise<void> {
    // The viewport may still be animating (fitView after an import) when the click lands, so a
    // click that missed the moving node is simply tried again.
    await expect(async () => {
      const box = await this.node(id).boundingBox()
      if (!box) throw new Error(`Node ${id} is not visible`)
      await this.expectInView({ x: box.x + 12, y: box.y + 14 }, `The header of ${id}`)
      await this.node(id).click({ position: { x: 12, y: 14 } })
      await expect(this.node(id)).toHaveAttribute('data-selected', 'true', { timeout: 2_000 })
    }).toPass({ timeout: 15_000 })
  }

  /** Clicks an empty part of the canvas (clears the selection; keys then go to the canvas). */
  async clickEmpty(at?: Point): Promise<void> {
    const point = at ?? (await this.pointAt(0.95, 0.05))
    await this.page.mouse.click(point.x, point.y)
  }

  async selectAll(): Promise<void> {
    await this.clickEmpty()
    await this.page.keyboard.press('ControlOrMeta+A')
  }

  /** Where a person grabs a node to move it: its header, left of the title. */
  async grabPoint(id: string): Promise<Point> {
    const box = await this.node(id).boundingBox()
    if (!box) throw new Error(`Node ${id} is not visible`)
    return { x: box.x + 14, y: box.y + 14 }
  }

  /**
   * Moves a node by dragging its header (`steps` mouse moves per half of the way). A drop
   * outside the canvas pans the view by a timing-dependent distance on the way (expectInView):
   * where the node ends up then depends on the machine's speed.
   */
  async moveNode(id: string, dx: number, dy: number, steps = 5): Promise<void> {
    const start = await this.grabPoint(id)
    await this.expectInView(start, `The header of ${id}`)
    await this.page.mouse.move(start.x, start.y)
    await this.page.mouse.down()
    await this.page.mouse.move(start.x + dx / 2, start.y + dy / 2, { steps })
    await this.page.mouse.move(start.x + dx, start.y + dy, { steps })
    await this.page.mouse.up()
  }

  /** Zooms with the mouse wheel over a canvas point (negative delta zooms in). */
  async wheel(at: Point, deltaY: number): Promise<void> {
    await this.page.mouse.move(at.x, at.y)
    await this.page.mouse.wheel(0, deltaY)
  }

  /** Pans by dragging an empty part of the canvas. */
  async pan(from: Point, dx: number, dy: number): Promise<void> {
    await this.page.mouse.move(from.x, from.y)
    await this.page.mouse.down()
    await this.page.mouse.move(from.x + dx, from.y + dy, { steps: 8 })
    await this.page.mouse.up()
  }

  /**
   * Starts counting the node bodies in the page at every frame; the function returned says the
   * most there were at once since (a big flow must draw only what is in view).
   */
  async watchDrawnNodes(): Promise<() => Promise<number>> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __drawnMax: number }
      w.__drawnMax = 0
      const tick = (): void => {
        w.__drawnMax = Math.max(w.__drawnMax, document.querySelectorAll('[data-testid="flow-node"]').length)
        requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    })
    return () => this.page.evaluate(() => (window as unknown as { __drawnMax: number }).__drawnMax)
  }

  /** The viewport React Flow shows (its transform: translate(x, y) scale(zoom)). */
  async viewport(): Promise<Viewport> {
    const transform = await this.page
      .locator('.react-flow__viewport')
      .evaluate((el) => (el as HTMLElement).style.transform)
    const match = /translate\(([-\d.e]+)px,\s*([-\d.e]+)px\)\s*scale\(([-\d.e]+)\)/.exec(transform)
    if (!match) throw new Error(`Unexpected viewport transform "${transform}"`)
    return { x: Number(match[1]), y: Number(match[2]), zoom: Number(match[3]) }
  }
}
